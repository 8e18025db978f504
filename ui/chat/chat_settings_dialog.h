#pragma once
// Edits one chat's system prompt and sampling settings.

#include "core/chat/generation_settings.h"

#include <QDialog>

class QCheckBox;
class QDoubleSpinBox;
class QPlainTextEdit;
class QSpinBox;

namespace folio::ui {

class ChatSettingsDialog : public QDialog {
    Q_OBJECT
public:
    ChatSettingsDialog(const QString& systemPrompt, const GenerationSettings& settings,
                       QWidget* parent = nullptr);

    QString systemPrompt() const;
    GenerationSettings settings() const;

private:
    QPlainTextEdit* prompt_ = nullptr;
    QDoubleSpinBox* temperature_ = nullptr;
    QSpinBox* topK_ = nullptr;
    QDoubleSpinBox* topP_ = nullptr;
    QDoubleSpinBox* minP_ = nullptr;
    QDoubleSpinBox* repetition_ = nullptr;
    QSpinBox* maxTokens_ = nullptr;
    QSpinBox* seed_ = nullptr;
    QCheckBox* lookup_ = nullptr;
};

} // namespace folio::ui
