#include "settings/settings_dialog.h"

#include "backend/long_context_defaults.h"
#include "backend/remote_probe.h"
#include "folio/system_info.h"
#include "settings/document_caches_panel.h"
#include "style/palette_colors.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QVBoxLayout>

#include <QtConcurrent>
#include <algorithm>

namespace folio::ui {

SettingsDialog::SettingsDialog(const AppSettings& s, QWidget* parent, const QString& cacheDir)
    : QDialog(parent), base_(s) {
    setWindowTitle(tr("Settings"));
    setObjectName(QStringLiteral("settingsDialog"));
    auto* outer = new QVBoxLayout(this);
    auto* tabs = new QTabWidget(this);
    tabs->setObjectName(QStringLiteral("settingsTabs"));
    outer->addWidget(tabs);
    auto* modelPage = new QWidget(tabs);
    auto* layout = new QVBoxLayout(modelPage);
    tabs->addTab(modelPage, tr("Model"));
    tabs->addTab(new DocumentCachesPanel(cacheDir, tabs), tr("Document caches"));
    auto* chatPage = new QWidget(tabs);
    auto* chatLayout = new QVBoxLayout(chatPage);
    enterSends_ =
        new QCheckBox(tr("Enter sends the question (Shift+Enter starts a new line)"), chatPage);
    enterSends_->setObjectName(QStringLiteral("enterSendsCheck"));
    enterSends_->setToolTip(tr("When off, Enter starts a new line and Ctrl+Enter sends."));
    enterSends_->setChecked(s.enterSends);
    chatLayout->addWidget(enterSends_);
    chatLayout->addStretch(1);
    tabs->addTab(chatPage, tr("Chat"));

    auto* backendForm = new QFormLayout;
    backend_ = new QComboBox(this);
    backend_->setObjectName(QStringLiteral("backendCombo"));
    backend_->addItem(tr("Embedded engine (a GGUF model on this machine)"),
                      BackendConfig::kindKey(BackendConfig::Kind::Embedded));
    backend_->addItem(tr("OpenAI-compatible server (vLLM, SGLang, folio-cli serve)"),
                      BackendConfig::kindKey(BackendConfig::Kind::Remote));
    backend_->setCurrentIndex(s.backend == BackendConfig::Kind::Remote ? 1 : 0);
    backendForm->addRow(tr("Backend"), backend_);
    layout->addLayout(backendForm);

    serverGroup_ = new QGroupBox(tr("Server"), this);
    serverGroup_->setObjectName(QStringLiteral("serverGroup"));
    auto* serverForm = new QFormLayout(serverGroup_);
    remoteUrl_ = new QLineEdit(s.remoteUrl, serverGroup_);
    remoteUrl_->setObjectName(QStringLiteral("remoteUrlEdit"));
    remoteUrl_->setPlaceholderText(QStringLiteral("http://gpu-box:8000/v1"));
    serverForm->addRow(tr("URL"), remoteUrl_);
    remoteKey_ = new QLineEdit(s.remoteApiKey, serverGroup_);
    remoteKey_->setObjectName(QStringLiteral("remoteKeyEdit"));
    remoteKey_->setEchoMode(QLineEdit::Password);
    remoteKey_->setPlaceholderText(tr("none"));
    serverForm->addRow(tr("API key"), remoteKey_);
    // Where the key is kept: the system keyring, or (no keyring running) folio.conf.
    keyNote_ = new QLabel(serverGroup_);
    keyNote_->setObjectName(QStringLiteral("apiKeyStorageNote"));
    keyNote_->setWordWrap(true);
    if (!s.apiKeyWarning.isEmpty()) {
        keyNote_->setText(s.apiKeyWarning);
        keyNote_->setStyleSheet(style::labelStyle(palette(), style::Tone::Warning));
    } else {
        keyNote_->setText(s.apiKeyInKeyring ? tr("The key is kept in the system keyring.")
                                            : tr("A key entered here is kept in the system "
                                                 "keyring where one runs."));
        keyNote_->setForegroundRole(QPalette::PlaceholderText);
    }
    serverForm->addRow(QString(), keyNote_);
    auto* modelRow = new QWidget(serverGroup_);
    auto* modelRowLayout = new QHBoxLayout(modelRow);
    modelRowLayout->setContentsMargins(0, 0, 0, 0);
    remoteModel_ = new QComboBox(modelRow);
    remoteModel_->setObjectName(QStringLiteral("remoteModelCombo"));
    remoteModel_->setEditable(true);
    remoteModel_->setMinimumWidth(260);
    remoteModel_->setCurrentText(s.remoteModel);
    modelRowLayout->addWidget(remoteModel_, 1);
    listButton_ = new QPushButton(tr("List models"), modelRow);
    listButton_->setObjectName(QStringLiteral("listModelsButton"));
    connect(listButton_, &QPushButton::clicked, this, &SettingsDialog::listModels);
    modelRowLayout->addWidget(listButton_);
    serverForm->addRow(tr("Model"), modelRow);
    listStatus_ = new QLabel(serverGroup_);
    listStatus_->setObjectName(QStringLiteral("listModelsStatus"));
    listStatus_->setWordWrap(true);
    serverForm->addRow(QString(), listStatus_);
    layout->addWidget(serverGroup_);

    engineGroup_ = new QGroupBox(tr("Embedded engine"), this);
    engineGroup_->setObjectName(QStringLiteral("engineGroup"));
    auto* form = new QFormLayout(engineGroup_);

    model_ = new QComboBox(this);
    model_->setObjectName(QStringLiteral("modelPathCombo"));
    model_->setEditable(true);
    model_->addItems(s.recentModels);
    model_->setCurrentText(s.modelPath);
    form->addRow(tr("Model (GGUF)"), pathRow(model_, tr("GGUF models (*.gguf)")));
    mmproj_ = new QComboBox(this);
    mmproj_->setObjectName(QStringLiteral("mmprojPathCombo"));
    mmproj_->setEditable(true);
    mmproj_->addItems(s.recentMmproj);
    mmproj_->setCurrentText(s.mmprojPath);
    form->addRow(tr("Vision projector (mmproj)"), pathRow(mmproj_, tr("GGUF files (*.gguf)")));

    threads_ = new QSpinBox(this);
    threads_->setObjectName(QStringLiteral("threadsBox"));
    threads_->setRange(0, 1024);
    threads_->setSpecialValueText(tr("all cores (%1)").arg(query_system_info().logical_cores));
    threads_->setValue(s.threads);
    form->addRow(tr("Threads"), threads_);
    context_ = new QSpinBox(this);
    context_->setObjectName(QStringLiteral("contextBox"));
    context_->setRange(0, 1 << 20);
    context_->setSingleStep(4096);
    context_->setSpecialValueText(tr("for long documents"));
    context_->setSuffix(tr(" tokens"));
    context_->setValue(static_cast<int>(s.context));
    form->addRow(tr("Context length"), context_);
    planLabel_ = new QLabel(this);
    planLabel_->setObjectName(QStringLiteral("longContextPlan"));
    planLabel_->setWordWrap(true);
    form->addRow(QString(), planLabel_);
    connect(model_, &QComboBox::currentTextChanged, this, &SettingsDialog::updatePlan);

    ramBudget_ = new QSpinBox(this);
    ramBudget_->setObjectName(QStringLiteral("ramBudgetBox"));
    ramBudget_->setRange(0, 1 << 24);
    ramBudget_->setSingleStep(256);
    ramBudget_->setSpecialValueText(tr("from available memory"));
    ramBudget_->setSuffix(tr(" MiB"));
    ramBudget_->setValue(static_cast<int>(s.ramBudgetMiB));
    form->addRow(tr("KV cache RAM budget"), ramBudget_);
    offload_ = new QCheckBox(tr("Move cold KV blocks to disk"), this);
    offload_->setObjectName(QStringLiteral("offloadCheck"));
    offload_->setChecked(s.offloadEnabled);
    form->addRow(QString(), offload_);
    offloadDir_ = new QLineEdit(s.offloadDir, this);
    offloadDir_->setObjectName(QStringLiteral("offloadDirEdit"));
    form->addRow(tr("Offload folder"), folderRow(offloadDir_));
    kvType_ = new QComboBox(this);
    kvType_->setObjectName(QStringLiteral("kvTypeCombo"));
    // The types are their own names (f16, q8_0); "auto" is said in words.
    for (const QString& type : AppSettings::kvTypes())
        kvType_->addItem(type == QLatin1String("auto") ? tr("automatic") : type, type);
    kvType_->setCurrentIndex(std::max(0, kvType_->findData(s.kvType)));
    form->addRow(tr("KV storage type"), kvType_);
    weightsMemory_ = new QComboBox(this);
    weightsMemory_->setObjectName(QStringLiteral("weightsMemoryCombo"));
    weightsMemory_->addItem(tr("Map from the file"), QStringLiteral("mapped"));
    weightsMemory_->addItem(tr("Copy into RAM when it fits"), QStringLiteral("auto"));
    weightsMemory_->addItem(tr("Always copy into RAM"), QStringLiteral("ram"));
    weightsMemory_->setCurrentIndex(std::max(0, weightsMemory_->findData(s.weightsMemory)));
    weightsMemory_->setToolTip(
        tr("Mapped, the system may drop pages of the model under memory pressure and read them "
           "from disk again. A copy in RAM (2 MiB pages) stays in memory and is safe from the "
           "file changing, but its memory stays taken until the model is unloaded; \"when it "
           "fits\" copies when half the available memory holds the file."));
    form->addRow(tr("Model weights"), weightsMemory_);
    speculation_ = new QCheckBox(tr("Speculative decoding (prompt lookup)"), this);
    speculation_->setObjectName(QStringLiteral("speculationCheck"));
    speculation_->setChecked(s.speculation);
    form->addRow(QString(), speculation_);
    layout->addWidget(engineGroup_);
    connect(backend_, &QComboBox::currentIndexChanged, this, &SettingsDialog::updateBackendGroups);
    updateBackendGroups();
    for (QSpinBox* box : {context_, ramBudget_})
        connect(box, &QSpinBox::valueChanged, this, &SettingsDialog::updatePlan);
    connect(kvType_, &QComboBox::currentTextChanged, this, &SettingsDialog::updatePlan);
    connect(offload_, &QCheckBox::toggled, this, &SettingsDialog::updatePlan);
    updatePlan();

    auto* note = new QLabel(tr("Changes apply when a model is loaded (OK reloads the model, or "
                               "connects to the server)."),
                            this);
    note->setWordWrap(true);
    layout->addWidget(note);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    outer->addWidget(buttons);
}

void SettingsDialog::updateBackendGroups() {
    const bool remote = backend_->currentIndex() == 1;
    serverGroup_->setEnabled(remote);
    engineGroup_->setEnabled(!remote);
}

void SettingsDialog::listModels() {
    BackendConfig config;
    config.kind = BackendConfig::Kind::Remote;
    config.url = remoteUrl_->text().trimmed();
    config.apiKey = remoteKey_->text();
    listButton_->setEnabled(false);
    listStatus_->setText(tr("Asking %1 for its models…").arg(config.url));
    auto* watcher = new QFutureWatcher<RemoteProbe>(this);
    connect(watcher, &QFutureWatcher<RemoteProbe>::finished, this, [this, watcher] {
        const RemoteProbe r = watcher->result();
        watcher->deleteLater();
        listButton_->setEnabled(true);
        if (!r.error.isEmpty()) {
            listStatus_->setText(tr("Cannot list the models: %1").arg(r.error));
            Q_EMIT modelsListed(r.error);
            return;
        }
        const QString current = remoteModel_->currentText();
        remoteModel_->clear();
        remoteModel_->addItems(r.models);
        remoteModel_->setCurrentText(
            current.isEmpty() || !r.models.contains(current) ? r.models.value(0) : current);
        listStatus_->setText(r.models.size() == 1
                                 ? tr("The server serves one model.")
                                 : tr("The server serves %1 models.").arg(r.models.size()));
        Q_EMIT modelsListed(QString());
    });
    // A network round trip (with retries): never on the GUI thread.
    watcher->setFuture(QtConcurrent::run([config] { return probeRemote(config, false, 1); }));
}

// What a load of the chosen model gets with these settings: "Defaults for long documents:
// context 131,072 (RAM 6.2 GiB + disk 12 GiB), KV f16". The model's header is read off the GUI
// thread.
void SettingsDialog::updatePlan() {
    LoadOptions o = settings().loadOptions();
    const quint64 request = ++planRequest_;
    auto* watcher = new QFutureWatcher<QString>(this);
    connect(watcher, &QFutureWatcher<QString>::finished, this, [this, watcher, request] {
        const QString text = watcher->result();
        watcher->deleteLater();
        if (request == planRequest_)
            planLabel_->setText(text);
    });
    watcher->setFuture(QtConcurrent::run([o]() mutable {
        if (o.model.isEmpty())
            return QString();
        const LongContextPlan plan =
            applyLongContextDefaults(o, o.offloadDir, !o.offloadDir.isEmpty());
        if (plan.kvBytesPerToken <= 0)
            return QString(); // not a model the engine can plan for
        return tr("With this model: %1, KV %2").arg(describePlan(plan), o.kvType);
    }));
}

QString SettingsDialog::listStatus() const {
    return listStatus_->text();
}

QWidget* SettingsDialog::pathRow(QComboBox* combo, const QString& filter) {
    auto* row = new QWidget(this);
    auto* h = new QHBoxLayout(row);
    h->setContentsMargins(0, 0, 0, 0);
    combo->setMinimumWidth(360);
    h->addWidget(combo, 1);
    auto* browse = new QPushButton(tr("Browse…"), row);
    connect(browse, &QPushButton::clicked, this, [this, combo, filter] {
        const QString path =
            QFileDialog::getOpenFileName(this, tr("Choose a file"), combo->currentText(), filter);
        if (!path.isEmpty())
            combo->setCurrentText(path);
    });
    h->addWidget(browse);
    return row;
}

QWidget* SettingsDialog::folderRow(QLineEdit* edit) {
    auto* row = new QWidget(this);
    auto* h = new QHBoxLayout(row);
    h->setContentsMargins(0, 0, 0, 0);
    h->addWidget(edit, 1);
    auto* browse = new QPushButton(tr("Browse…"), row);
    connect(browse, &QPushButton::clicked, this, [this, edit] {
        const QString dir =
            QFileDialog::getExistingDirectory(this, tr("Offload folder"), edit->text());
        if (!dir.isEmpty())
            edit->setText(dir);
    });
    h->addWidget(browse);
    return row;
}

AppSettings SettingsDialog::settings() const {
    AppSettings s = base_;
    const QString model = model_->currentText().trimmed();
    if (!model.isEmpty() && model != s.modelPath)
        s.rememberModel(model);
    s.modelPath = model;
    s.rememberMmproj(mmproj_->currentText().trimmed());
    s.threads = threads_->value();
    s.context = context_->value();
    s.ramBudgetMiB = ramBudget_->value();
    s.offloadEnabled = offload_->isChecked();
    s.offloadDir = offloadDir_->text().trimmed();
    s.kvType = kvType_->currentData().toString();
    s.speculation = speculation_->isChecked();
    s.weightsMemory = weightsMemory_->currentData().toString();
    s.enterSends = enterSends_->isChecked();
    s.backend = BackendConfig::kindFromKey(backend_->currentData().toString());
    s.remoteUrl = remoteUrl_->text().trimmed();
    s.remoteApiKey = remoteKey_->text();
    s.remoteModel = remoteModel_->currentText().trimmed();
    return s;
}

} // namespace folio::ui
