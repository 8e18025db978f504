#include "core/report/report_generator.h"

#include "core/chat/answer_figures.h"
#include "core/pipeline/eta.h"
#include "core/pipeline/human_format.h"
#include "core/pipeline/page_ranges.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QRegularExpression>

#include <algorithm>
#include <set>

namespace folio::ui {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("folio::ui", text);
}

// A decoded token costs about as much time as this many prompt tokens (the ETA's work unit,
// as the summary counts it: the demo model's prefill and decode rates, docs/NUMERICS.md).
constexpr double kDecodeWeight = 10;

double work(const SectionRequest& r) {
    return double(r.promptTokens) + kDecodeWeight * r.maxTokens;
}

bool wanted(const ReportSection& s, int index, const ReportRunOptions& o) {
    if (o.only.isEmpty())
        return s.state == ReportSection::State::Pending || s.state == ReportSection::State::Failed;
    if (!o.only.contains(index))
        return false;
    return s.state != ReportSection::State::Edited || o.overwriteEdited;
}

QList<FigureSource> figureSources(const Report& report, const ReportInputs& inputs) {
    QList<FigureSource> sources;
    for (int i = 0; i < inputs.documents.size(); ++i) {
        const PageSource& d = inputs.documents[i];
        const QString file = i < report.documents.size()
                                 ? QFileInfo(report.documents[i].path).fileName()
                                 : QString();
        sources << FigureSource{d.title, file, d.pageTexts};
    }
    return sources;
}

QList<ReportPagesUsed> pagesUsed(const PageSelection& selection) {
    QList<ReportPagesUsed> used;
    for (int i = 0; i < selection.documents.size(); ++i) {
        const DocumentPages& d = selection.documents[i];
        if (!d.pages.isEmpty())
            used << ReportPagesUsed{i, d.pages, d.pageCount};
    }
    return used;
}

// A section whose prompt did not fit is planned again, with a smaller budget, this many times.
constexpr int kTooLongRetries = 3;

} // namespace

bool promptTooLong(const QString& error, qint64* promptTokens) {
    static const QRegularExpression ours(
        QStringLiteral("prompt has (\\d+) tokens; the context holds"));
    static const QRegularExpression vllm(QStringLiteral("maximum context length is \\d+ tokens"));
    static const QRegularExpression messages(QStringLiteral("(\\d+) in the messages"));
    static const QRegularExpression requested(QStringLiteral("requested (\\d+) tokens"));
    static const QRegularExpression other(
        QStringLiteral("(longer than the model's context length|context length exceeded|"
                       "maximum context length)"),
        QRegularExpression::CaseInsensitiveOption);
    qint64 tokens = 0;
    bool matched = false;
    if (const QRegularExpressionMatch m = ours.match(error); m.hasMatch()) {
        matched = true;
        tokens = m.captured(1).toLongLong();
    } else if (vllm.match(error).hasMatch()) {
        matched = true;
        const QRegularExpressionMatch m = messages.match(error);
        const QRegularExpressionMatch r = requested.match(error);
        tokens = m.hasMatch()   ? m.captured(1).toLongLong()
                 : r.hasMatch() ? r.captured(1).toLongLong()
                                : 0;
    } else {
        matched = other.match(error).hasMatch();
    }
    if (promptTokens)
        *promptTokens = tokens;
    return matched;
}

QString sourcesSectionText(const Report& report) {
    QStringList lines;
    for (int doc = 0; doc < report.documents.size(); ++doc) {
        std::set<int> pages;
        for (const ReportSection& s : report.sections)
            if (s.state == ReportSection::State::Done || s.state == ReportSection::State::Edited)
                for (const ReportPagesUsed& u : s.pagesUsed)
                    if (u.document == doc)
                        pages.insert(u.pages.begin(), u.pages.end());
        const ReportDocument& d = report.documents[doc];
        const QString name = QFileInfo(d.path).fileName();
        const QString label =
            report.documents.size() > 1 ? QStringLiteral("[doc %1] ").arg(doc + 1) : QString();
        if (pages.empty())
            lines << tr("- %1%2 (%3, %4 pages): no pages used")
                         .arg(label, d.title, name)
                         .arg(d.pageCount);
        else
            lines << tr("- %1%2 (%3): %4")
                         .arg(
                             label, d.title, name,
                             formatPageRanges(QList<int>(pages.begin(), pages.end()), d.pageCount));
    }
    for (const QString& image : report.images)
        lines << tr("- Chart: %1").arg(QFileInfo(image).fileName());
    for (const QString& data : report.dataSources)
        lines << tr("- Data: %1").arg(QFileInfo(data).fileName());
    return lines.join(QLatin1Char('\n'));
}

QString formatReportProgress(const ReportProgress& p) {
    return tr("section %1 of %2 · %3 · %4")
        .arg(p.section + 1)
        .arg(p.sections)
        .arg(p.heading, p.etaSeconds < 0 ? tr("estimating the time left")
                                         : tr("%1 left").arg(humanEta(p.etaSeconds)));
}

ReportRunResult generateReport(Report& report, const ReportInputs& inputs,
                               const TokenCounter& counter, PageTokenCache& cache,
                               const SectionAsk& ask, const ReportSaveFn& save,
                               const ReportProgressFn& progress, const ReportRunOptions& options) {
    ReportRunResult result;
    const ReportTemplate& shape = report.shape;
    // Every request planned first: a context too small fails before any time is spent, and the
    // ETA knows the whole run's work.
    QList<SectionRequest> plan;
    for (int i = 0; i < report.sections.size() && i < shape.sections.size(); ++i) {
        if (!wanted(report.sections[i], i, options) ||
            shape.sections[i].form == SectionForm::Sources)
            continue;
        QString error;
        SectionRequest r = planSectionRequest(shape, i, inputs, counter, cache, &error);
        if (!error.isEmpty()) {
            result.error = error;
            return result;
        }
        plan << r;
    }
    QElapsedTimer elapsed;
    elapsed.start();
    const std::function<double()> now =
        options.clock ? options.clock : [&elapsed] { return double(elapsed.nsecsElapsed()) / 1e9; };
    double total = 0;
    for (const SectionRequest& r : plan)
        total += work(r);
    EtaEstimator eta;
    eta.start(total, now());
    double done = 0;
    const QList<FigureSource> sources = figureSources(report, inputs);

    auto store = [&]() {
        report.updated = QDateTime::currentDateTimeUtc();
        // Folio's own sections follow the pages the others used.
        for (int i = 0; i < report.sections.size() && i < shape.sections.size(); ++i)
            if (shape.sections[i].form == SectionForm::Sources &&
                report.sections[i].state != ReportSection::State::Edited) {
                report.sections[i].text = sourcesSectionText(report);
                report.sections[i].state = report.sections[i].text.isEmpty()
                                               ? ReportSection::State::Pending
                                               : ReportSection::State::Done;
            }
        return save ? save(report) : QString();
    };

    for (int step = 0; step < plan.size(); ++step) {
        const SectionRequest& r = plan[step];
        if (progress)
            progress({r.index, int(report.sections.size()), step + 1, int(plan.size()), r.heading,
                      eta.remaining(now())});
        const double started = now();
        SectionAnswer answer = ask(r);
        // A prompt the backend counts longer than we did (a server's tokenizer, estimates):
        // the section planned again within what its count says fits.
        SectionRequest asked = r;
        ReportInputs smaller = inputs;
        for (int retry = 0; retry < kTooLongRetries; ++retry) {
            qint64 reported = 0;
            if (answer.status != SectionAnswer::Status::Failed ||
                !promptTooLong(answer.error, &reported))
                break;
            const qint64 documents = smaller.contextTokens - asked.maxTokens;
            const double scale = reported > asked.promptTokens && asked.promptTokens > 0
                                     ? 0.95 * double(asked.promptTokens) / double(reported)
                                     : 0.75;
            smaller.contextTokens = asked.maxTokens + qint64(double(documents) * scale);
            QString error;
            SectionRequest again =
                planSectionRequest(shape, r.index, smaller, counter, cache, &error);
            if (!error.isEmpty())
                break;
            asked = again;
            answer = ask(asked);
        }
        ReportSection& section = report.sections[r.index];
        if (answer.status == SectionAnswer::Status::Cancelled) {
            result.cancelled = true;
            result.error = tr("cancelled at the section “%1”").arg(r.heading);
            const QString saved = store();
            if (!saved.isEmpty())
                result.error = saved;
            return result;
        }
        if (answer.status == SectionAnswer::Status::Failed) {
            section.state = ReportSection::State::Failed;
            section.error = answer.error;
            result.failed << r.index;
            if (result.error.isEmpty())
                result.error = tr("the section “%1” failed: %2").arg(r.heading, answer.error);
        } else {
            section.state = ReportSection::State::Done;
            section.error.clear();
            section.text = answer.text.trimmed();
            section.figures = checkAnswerFigures(section.text, sources, answer.tables);
            ++result.made;
        }
        section.pagesUsed = pagesUsed(asked.selection);
        section.promptTokens = asked.promptTokens;
        section.imagesUsed = asked.imagesIn;
        section.seconds = now() - started;
        done += work(r);
        eta.progress(done, now());
        const QString saved = store();
        if (!saved.isEmpty()) {
            result.error = saved; // a full disk: stop, the file on disk keeps what it had
            return result;
        }
    }
    if (plan.isEmpty()) {
        const QString saved = store();
        if (!saved.isEmpty()) {
            result.error = saved;
            return result;
        }
    }
    result.ok = result.failed.isEmpty();
    return result;
}

} // namespace folio::ui
