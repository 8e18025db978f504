#include "settings/settings_dialog.h"

#include "folio/system_info.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace folio::ui {

SettingsDialog::SettingsDialog(const AppSettings& s, QWidget* parent) : QDialog(parent), base_(s) {
    setWindowTitle(tr("Settings"));
    setObjectName(QStringLiteral("settingsDialog"));
    auto* layout = new QVBoxLayout(this);
    auto* form = new QFormLayout;

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
    context_->setSpecialValueText(tr("model default (up to 32768)"));
    context_->setSuffix(tr(" tokens"));
    context_->setValue(static_cast<int>(s.context));
    form->addRow(tr("Context length"), context_);

    ramBudget_ = new QSpinBox(this);
    ramBudget_->setObjectName(QStringLiteral("ramBudgetBox"));
    ramBudget_->setRange(0, 1 << 24);
    ramBudget_->setSingleStep(256);
    ramBudget_->setSpecialValueText(tr("unlimited"));
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
    kvType_->addItems(AppSettings::kvTypes());
    kvType_->setCurrentText(s.kvType);
    form->addRow(tr("KV storage type"), kvType_);
    speculation_ = new QCheckBox(tr("Speculative decoding (prompt lookup)"), this);
    speculation_->setObjectName(QStringLiteral("speculationCheck"));
    speculation_->setChecked(s.speculation);
    form->addRow(QString(), speculation_);
    layout->addLayout(form);

    auto* note =
        new QLabel(tr("Changes apply when a model is loaded (OK reloads the model)."), this);
    note->setWordWrap(true);
    layout->addWidget(note);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
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
    s.kvType = kvType_->currentText();
    s.speculation = speculation_->isChecked();
    return s;
}

} // namespace folio::ui
