#pragma once
// Edits AppSettings: model and vision projector (with recent models), threads, context length,
// the KV cache's RAM budget, offload folder and storage type, speculation.

#include "settings/app_settings.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLineEdit;
class QSpinBox;

namespace folio::ui {

class SettingsDialog : public QDialog {
    Q_OBJECT
public:
    explicit SettingsDialog(const AppSettings& settings, QWidget* parent = nullptr);
    AppSettings settings() const;

private:
    QWidget* pathRow(QComboBox* combo, const QString& filter);
    QWidget* folderRow(QLineEdit* edit);

    AppSettings base_;
    QComboBox* model_ = nullptr;
    QComboBox* mmproj_ = nullptr;
    QSpinBox* threads_ = nullptr;
    QSpinBox* context_ = nullptr;
    QSpinBox* ramBudget_ = nullptr;
    QCheckBox* offload_ = nullptr;
    QLineEdit* offloadDir_ = nullptr;
    QComboBox* kvType_ = nullptr;
    QCheckBox* speculation_ = nullptr;
};

} // namespace folio::ui
