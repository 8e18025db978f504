#pragma once
// Edits AppSettings: the backend (embedded engine, or an OpenAI-compatible server with its URL,
// API key and model; "List models" asks the server off the GUI thread), model and vision
// projector (with recent models), threads, context length, the KV cache's RAM budget, offload
// folder and storage type, speculation; a second tab lists the document caches
// (settings/document_caches_panel.h).

#include "settings/app_settings.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace folio::ui {

class SettingsDialog : public QDialog {
    Q_OBJECT
public:
    // `cacheDir`: the document-cache folder the "Document caches" tab lists ("" : the default).
    explicit SettingsDialog(const AppSettings& settings, QWidget* parent = nullptr,
                            const QString& cacheDir = QString());
    AppSettings settings() const;

    // Fetches GET /v1/models from the server in the URL field (in the thread pool) and fills
    // the model list; modelsListed() reports the outcome ("" : success).
    void listModels();
    QComboBox* remoteModelCombo() const { return remoteModel_; }
    QString listStatus() const;

Q_SIGNALS:
    void modelsListed(const QString& error);

private:
    void updateBackendGroups();
    void updatePlan();
    QWidget* pathRow(QComboBox* combo, const QString& filter);
    QWidget* folderRow(QLineEdit* edit);

    AppSettings base_;
    QComboBox* backend_ = nullptr;
    QGroupBox* engineGroup_ = nullptr;
    QGroupBox* serverGroup_ = nullptr;
    QLineEdit* remoteUrl_ = nullptr;
    QLineEdit* remoteKey_ = nullptr;
    QComboBox* remoteModel_ = nullptr;
    QPushButton* listButton_ = nullptr;
    QLabel* listStatus_ = nullptr;
    QComboBox* model_ = nullptr;
    QComboBox* mmproj_ = nullptr;
    QSpinBox* threads_ = nullptr;
    QSpinBox* context_ = nullptr;
    QSpinBox* ramBudget_ = nullptr;
    QCheckBox* offload_ = nullptr;
    QLineEdit* offloadDir_ = nullptr;
    QComboBox* kvType_ = nullptr;
    QComboBox* weightsMemory_ = nullptr;
    QCheckBox* speculation_ = nullptr;
    QCheckBox* enterSends_ = nullptr;
    QLabel* keyNote_ = nullptr;
    QLabel* planLabel_ = nullptr; // the long-document defaults for the chosen model
    quint64 planRequest_ = 0;
};

} // namespace folio::ui
