#pragma once
// Making a report's sections (issue #49 §2–3): each pending or failed section planned and asked
// on its own (section_request.h), its figures checked against the documents' pages (the figure
// checker), the report saved after every section, so a crash or a restart keeps the finished
// ones and the next run resumes at the first section not made. Sections the user edited are
// never made again; one section can be made again on request. The "sources" sections are
// written by Folio from the pages the other sections used. Progress carries an ETA for the
// whole report (pipeline/eta), from the work left: each request's prompt and answer tokens.
//
// The caller supplies `ask`, which runs one request and returns its answer (the CLI waits on
// the engine or a remote server; the workbench runs this on a thread of its own).

#include "core/pipeline/markdown_table.h"
#include "core/report/report.h"
#include "core/report/section_request.h"

#include <functional>

namespace folio::ui {

struct SectionAnswer {
    enum class Status { Ok, Failed, Cancelled };
    Status status = Status::Ok;
    QString text;
    QString error;
    // The results of the SQL tool's queries the answer made (a section that draws on data):
    // figures without a page citation are checked against them.
    QList<MarkdownTable> tables = {};
};

// True when `error` says the prompt did not fit the context (the engine's and `folio-cli
// serve`'s "the prompt has N tokens; the context holds M", vLLM's "maximum context length is M
// tokens. However, you requested N tokens (X in the messages, …)", SGLang's "longer than the
// model's context length"); `promptTokens` gets the prompt's tokens when the message says.
// A server's counts are not ours (estimates): such a section is planned again with less.
bool promptTooLong(const QString& error, qint64* promptTokens = nullptr);

struct ReportProgress {
    int section = 0;         // 0-based, the section being made
    int sections = 0;        // in the report
    int step = 1, steps = 1; // this run's requests: 1-based
    QString heading;
    double etaSeconds = -1; // the rest of this run; < 0: not known yet
};

struct ReportRunOptions {
    // Sections to make (0-based): empty, every pending or failed one; else these, also when
    // done (made again); an edited one only when `overwriteEdited`.
    QList<int> only;
    bool overwriteEdited = false;
    std::function<double()> clock = {}; // seconds on a steady clock (tests script it)
};

struct ReportRunResult {
    bool ok = false; // every asked section was made
    bool cancelled = false;
    QString error;     // the first failure: the section and why
    int made = 0;      // sections made in this run
    QList<int> failed; // sections whose request failed
};

using SectionAsk = std::function<SectionAnswer(const SectionRequest&)>;
using ReportProgressFn = std::function<void(const ReportProgress&)>;
// Saves the report; "" on success, else why (a full disk): the run stops, nothing is lost.
using ReportSaveFn = std::function<QString(const Report&)>;

ReportRunResult generateReport(Report& report, const ReportInputs& inputs,
                               const TokenCounter& counter, PageTokenCache& cache,
                               const SectionAsk& ask, const ReportSaveFn& save,
                               const ReportProgressFn& progress = {},
                               const ReportRunOptions& options = {});

// The text of a "sources" section: each document with the pages the report's sections used.
QString sourcesSectionText(const Report& report);

// "section 3 of 7 · Financial performance · about 2 min left"
QString formatReportProgress(const ReportProgress& progress);

} // namespace folio::ui
