#include "reports/reports_dialog.h"

#include "core/chat/answer_figures.h"
#include "core/export/figures_appendix.h"
#include "core/report/builtin_templates.h"
#include "core/report/report_export.h"
#include "core/report/report_json.h"
#include "reports/report_runner.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QStandardPaths>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace folio::ui {

namespace {

QString uiTemplateLanguage() {
    return QLocale().name().startsWith(QLatin1String("zh")) ? QStringLiteral("zh_CN")
                                                            : QStringLiteral("en");
}

QString readText(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

} // namespace

QString ReportsDialog::reportPath(const QString& chatId) {
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
           QStringLiteral("/reports/") + chatId + QStringLiteral(".folio-report");
}

ReportsDialog::ReportsDialog(ReportRunner* runner, const QString& chatId,
                             const QList<Document>& documents, QWidget* parent)
    : QDialog(parent), runner_(runner), chatId_(chatId), documents_(documents) {
    setWindowTitle(tr("Reports"));
    setObjectName(QStringLiteral("reportsDialog"));
    templates_ = new QComboBox(this);
    templates_->setObjectName(QStringLiteral("reportTemplate"));
    for (const ReportTemplate& t : builtInReportTemplates(uiTemplateLanguage()))
        templates_->addItem(t.title, t.source);
    templates_->addItem(tr("Template file…"), QString());
    sources_ = new QLabel(this);
    sources_->setWordWrap(true);
    outline_ = new QListWidget(this);
    outline_->setObjectName(QStringLiteral("reportOutline"));
    section_ = new QTextBrowser(this);
    section_->setObjectName(QStringLiteral("reportSection"));
    progress_ = new QLabel(this);
    progress_->setObjectName(QStringLiteral("reportProgress"));
    progress_->setWordWrap(true);
    make_ = new QPushButton(tr("&Make report"), this);
    stop_ = new QPushButton(tr("&Stop"), this);
    again_ = new QPushButton(tr("Make section &again"), this);
    edit_ = new QPushButton(tr("&Edit section…"), this);
    export_ = new QPushButton(tr("E&xport…"), this);

    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("&Template:"), this));
    qobject_cast<QLabel*>(top->itemAt(0)->widget())->setBuddy(templates_);
    top->addWidget(templates_, 1);
    auto* middle = new QHBoxLayout;
    middle->addWidget(outline_, 1);
    middle->addWidget(section_, 2);
    auto* buttons = new QHBoxLayout;
    for (QPushButton* b : {make_, stop_, again_, edit_, export_})
        buttons->addWidget(b);
    buttons->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(sources_);
    layout->addLayout(middle, 1);
    layout->addWidget(progress_);
    layout->addLayout(buttons);
    resize(900, 600);

    connect(templates_, &QComboBox::activated, this, &ReportsDialog::templateChosen);
    connect(outline_, &QListWidget::currentRowChanged, this, &ReportsDialog::showSection);
    connect(make_, &QPushButton::clicked, this, &ReportsDialog::makeReport);
    connect(stop_, &QPushButton::clicked, runner_, &ReportRunner::stop);
    connect(again_, &QPushButton::clicked, this,
            [this] { makeSectionAgain(outline_->currentRow()); });
    connect(edit_, &QPushButton::clicked, this, [this] {
        const int row = outline_->currentRow();
        if (row < 0 || row >= report_.sections.size())
            return;
        bool ok = false;
        const QString text = QInputDialog::getMultiLineText(this, tr("Edit section"),
                                                            report_.shape.sections[row].heading,
                                                            report_.sections[row].text, &ok);
        if (ok)
            editSection(row, text);
    });
    connect(export_, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Export report"), report_.title + QStringLiteral(".pdf"),
            tr("PDF (*.pdf);;OpenDocument text (*.odt);;HTML (*.html);;Markdown (*.md)"));
        if (path.isEmpty())
            return;
        const QString failed = exportTo(path);
        progress_->setText(
            failed.isEmpty() ? tr("Exported to %1").arg(QDir::toNativeSeparators(path)) : failed);
    });
    connect(runner_, &ReportRunner::progress, this,
            [this](const QString& line) { progress_->setText(line); });
    connect(runner_, &ReportRunner::reportSaved, this, &ReportsDialog::showReport);
    connect(runner_, &ReportRunner::finished, this, [this](bool ok, const QString& message) {
        progress_->setText(ok ? tr("The report is made: %1 sections.").arg(report_.sections.size())
                              : message);
        updateButtons();
        Q_EMIT runFinished(ok);
    });

    // The chat's report, when it has one: its template chosen, its sections shown.
    Report saved;
    if (QFile::exists(reportPath(chatId_)) && loadReport(reportPath(chatId_), saved, nullptr)) {
        int at = -1;
        for (int i = 0; i < templates_->count(); ++i)
            if (readText(templates_->itemData(i).toString()) == saved.templateText)
                at = i;
        if (at < 0) {
            templates_->insertItem(0, saved.title, QString());
            at = 0;
        }
        templates_->setCurrentIndex(at);
        shape_ = saved.shape;
        templateText_ = saved.templateText;
        templateName_ = saved.templateName;
        showReport(saved);
    } else {
        templateChosen();
    }
}

void ReportsDialog::chooseTemplateFile() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open template"), QString(),
                                                      tr("Report templates (*.md)"));
    if (path.isEmpty())
        return;
    const TemplateParse parse = readReportTemplate(path);
    if (!parse.ok()) {
        progress_->setText(parse.error);
        return;
    }
    templates_->insertItem(0, parse.value.title, path);
    templates_->setCurrentIndex(0);
    templateChosen();
}

void ReportsDialog::templateChosen() {
    const QString source = templates_->currentData().toString();
    if (source.isEmpty() && templates_->currentIndex() == templates_->count() - 1)
        return chooseTemplateFile();
    if (source.isEmpty())
        return; // the saved report's own template
    const TemplateParse parse = readReportTemplate(source);
    if (!parse.ok()) {
        progress_->setText(parse.error);
        return;
    }
    shape_ = parse.value;
    templateText_ = readText(source);
    templateName_ = source.startsWith(QLatin1Char(':')) ? shape_.id : QFileInfo(source).fileName();
    if (report_.templateText != templateText_) // another template: its outline, nothing made
        showReport(newReport(shape_, templateText_, templateName_));
}

bool ReportsDialog::prepare(QString* error) {
    inputs_ = ReportInputs{};
    QList<ReportDocument> used;
    for (const Document& d : documents_) {
        if (d.state != Document::State::Ready)
            continue;
        if (d.kind == Document::Kind::Image) {
            inputs_.images << d.path;
            continue;
        }
        PageSource source;
        source.title = d.title;
        source.pageTexts = d.pageTexts;
        source.fingerprint = d.fingerprint;
        source.number = int(inputs_.documents.size()) + 1;
        inputs_.documents << source;
        used << ReportDocument{d.path, d.title, d.fingerprint, d.pageCount};
    }
    if (inputs_.documents.size() < shape_.documents) {
        *error = tr("“%1” reads %n document(s); open them in this chat first.", nullptr,
                    shape_.documents)
                     .arg(shape_.title);
        return false;
    }
    bool same = report_.templateText == templateText_ && report_.documents.size() == used.size();
    for (int i = 0; same && i < used.size(); ++i)
        same = report_.documents[i].fingerprint == used[i].fingerprint;
    if (!same) { // another template or other documents: a new report
        report_ = newReport(shape_, templateText_, templateName_);
        report_.documents = used;
    }
    report_.images = inputs_.images;
    inputs_.images = report_.images;
    inputs_.contextTokens = runner_->contextLimit() > 0 ? runner_->contextLimit() : 4096;
    inputs_.answerTokens = int(qMin<qint64>(768, inputs_.contextTokens / 4));
    inputs_.vision = runner_->acceptsImages();
    return true;
}

void ReportsDialog::start(const ReportRunOptions& options) {
    QString error;
    if (runner_->isRunning() || !prepare(&error)) {
        if (!error.isEmpty())
            progress_->setText(error);
        return;
    }
    progress_->setText(tr("Starting…"));
    runner_->start(report_, inputs_, reportPath(chatId_), options);
    updateButtons();
}

void ReportsDialog::makeReport() {
    start({});
}

void ReportsDialog::makeSectionAgain(int section) {
    if (section < 0 || section >= report_.sections.size())
        return;
    ReportRunOptions options;
    options.only = {section};
    options.overwriteEdited = true;
    start(options);
}

void ReportsDialog::editSection(int section, const QString& text) {
    if (runner_->isRunning() || section < 0 || section >= report_.sections.size())
        return;
    QString error;
    if (!prepare(&error)) {
        progress_->setText(error);
        return;
    }
    ReportSection& s = report_.sections[section];
    s.state = ReportSection::State::Edited;
    s.text = text;
    s.error.clear();
    QList<FigureSource> sources;
    for (int i = 0; i < inputs_.documents.size(); ++i)
        sources << FigureSource{inputs_.documents[i].title,
                                QFileInfo(report_.documents[i].path).fileName(),
                                inputs_.documents[i].pageTexts};
    s.figures = checkAnswerFigures(text, sources);
    report_.updated = QDateTime::currentDateTimeUtc();
    const QString failed = saveReport(reportPath(chatId_), report_);
    progress_->setText(failed.isEmpty() ? tr("Section saved as you wrote it.") : failed);
    showReport(report_);
}

QString ReportsDialog::exportTo(const QString& path) {
    return exportReport(path, report_);
}

void ReportsDialog::showReport(const Report& report) {
    report_ = report;
    const int row = qMax(0, outline_->currentRow());
    outline_->clear();
    for (int i = 0; i < report_.sections.size(); ++i) {
        const ReportSection& s = report_.sections[i];
        QString mark;
        switch (s.state) {
        case ReportSection::State::Done:
            mark = QStringLiteral("✓");
            break;
        case ReportSection::State::Edited:
            mark = QStringLiteral("✎");
            break;
        case ReportSection::State::Failed:
            mark = QStringLiteral("✗");
            break;
        case ReportSection::State::Pending:
            mark = QStringLiteral("·");
            break;
        }
        QString text =
            QStringLiteral("%1 %2. %3").arg(mark).arg(i + 1).arg(report_.shape.sections[i].heading);
        if (sectionHasFiguresNotFound(s))
            text += QStringLiteral(" — ") + tr("figures not found");
        auto* item = new QListWidgetItem(text, outline_);
        item->setToolTip(s.state == ReportSection::State::Failed ? s.error
                                                                 : figuresLine(s.figures));
    }
    QStringList names;
    for (const ReportDocument& d : report_.documents)
        names << d.title;
    sources_->setText(names.isEmpty() ? tr("Reads the chat's documents.")
                                      : tr("Reads: %1").arg(names.join(QStringLiteral("; "))));
    outline_->setCurrentRow(qMin(row, int(outline_->count()) - 1));
    showSection();
    updateButtons();
}

void ReportsDialog::showSection() {
    const int row = outline_->currentRow();
    if (row < 0 || row >= report_.sections.size()) {
        section_->clear();
        return;
    }
    const ReportSection& s = report_.sections[row];
    if (s.state == ReportSection::State::Pending)
        section_->setPlainText(tr("Not made yet."));
    else if (s.state == ReportSection::State::Failed)
        section_->setPlainText(tr("This section failed: %1").arg(s.error));
    else
        section_->setMarkdown(withExportFigureMarks(s.text, s.figures));
}

void ReportsDialog::updateButtons() {
    const bool running = runner_->isRunning();
    const bool any = outline_->currentRow() >= 0;
    make_->setEnabled(!running && !report_.finished());
    make_->setText(report_.sectionsLeft() < report_.sections.size() && !report_.finished()
                       ? tr("&Resume report")
                       : tr("&Make report"));
    stop_->setEnabled(running);
    again_->setEnabled(!running && any);
    edit_->setEnabled(!running && any);
    export_->setEnabled(!running && report_.sectionsLeft() < report_.sections.size());
}

} // namespace folio::ui
