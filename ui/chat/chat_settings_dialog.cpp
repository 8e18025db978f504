#include "chat/chat_settings_dialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QPlainTextEdit>
#include <QSpinBox>
#include <QVBoxLayout>

namespace folio::ui {

namespace {
QDoubleSpinBox* doubleBox(double lo, double hi, double step, double value, QWidget* parent) {
    auto* box = new QDoubleSpinBox(parent);
    box->setRange(lo, hi);
    box->setSingleStep(step);
    box->setDecimals(2);
    box->setValue(value);
    return box;
}
} // namespace

ChatSettingsDialog::ChatSettingsDialog(const QString& systemPrompt, const GenerationSettings& s,
                                       QWidget* parent)
    : QDialog(parent) {
    setWindowTitle(tr("Chat settings"));
    setObjectName(QStringLiteral("chatSettingsDialog"));
    auto* layout = new QVBoxLayout(this);
    auto* form = new QFormLayout;
    prompt_ = new QPlainTextEdit(systemPrompt, this);
    prompt_->setObjectName(QStringLiteral("systemPromptEdit"));
    form->addRow(tr("System prompt"), prompt_);
    temperature_ = doubleBox(0, 2, 0.05, s.temperature, this);
    temperature_->setObjectName(QStringLiteral("temperatureBox"));
    form->addRow(tr("Temperature (0: greedy)"), temperature_);
    topK_ = new QSpinBox(this);
    topK_->setRange(0, 1000);
    topK_->setValue(s.topK);
    form->addRow(tr("Top-k"), topK_);
    topP_ = doubleBox(0, 1, 0.01, s.topP, this);
    form->addRow(tr("Top-p"), topP_);
    minP_ = doubleBox(0, 1, 0.01, s.minP, this);
    form->addRow(tr("Min-p"), minP_);
    repetition_ = doubleBox(0.5, 2, 0.05, s.repetitionPenalty, this);
    form->addRow(tr("Repetition penalty"), repetition_);
    maxTokens_ = new QSpinBox(this);
    maxTokens_->setRange(1, 32768);
    maxTokens_->setValue(s.maxTokens);
    maxTokens_->setObjectName(QStringLiteral("maxTokensBox"));
    form->addRow(tr("Answer length (tokens)"), maxTokens_);
    seed_ = new QSpinBox(this);
    seed_->setRange(0, INT_MAX);
    seed_->setValue(static_cast<int>(qMin<quint64>(s.seed, INT_MAX)));
    // 0: not fixed (a regenerated answer samples afresh); another value repeats answers.
    seed_->setSpecialValueText(tr("not fixed"));
    form->addRow(tr("Seed"), seed_);
    lookup_ = new QCheckBox(tr("Prompt-lookup speculation"), this);
    lookup_->setChecked(s.promptLookup);
    form->addRow(QString(), lookup_);
    layout->addLayout(form);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
}

QString ChatSettingsDialog::systemPrompt() const {
    return prompt_->toPlainText();
}

GenerationSettings ChatSettingsDialog::settings() const {
    GenerationSettings s;
    s.temperature = temperature_->value();
    s.topK = topK_->value();
    s.topP = topP_->value();
    s.minP = minP_->value();
    s.repetitionPenalty = repetition_->value();
    s.maxTokens = maxTokens_->value();
    s.seed = static_cast<quint64>(seed_->value());
    s.promptLookup = lookup_->isChecked();
    return s;
}

} // namespace folio::ui
