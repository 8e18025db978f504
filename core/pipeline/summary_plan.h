#pragma once
// Summaries of documents of any length (issue #22 §3), shared by `folio-cli summarize` and the
// workbench's "Summarize document". The document is split into consecutive page ranges whose
// prompt fits the context with room for the answer (counted with the TokenCounter: exact with
// the model's tokenizer), each range is summarized with page citations, and the part summaries
// are combined, each headed by its page range; when they do not fit one prompt together they
// are combined in stages (groups that fit, then again) until one remains. A single page longer
// than the context is read in pieces split by characters. Nothing here fails because a
// document is long: only a failed or cancelled request (named in the result) or a context too
// small for the prompt's frame ends it early.
//
// The caller supplies `ask`, which runs one request and returns its answer (the CLI waits on
// the engine; the workbench runs this on a thread of its own and waits on EngineWorker).

#include "core/pipeline/chat_turn.h"
#include "core/pipeline/prompt_builder.h"
#include "core/pipeline/token_counter.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

#include <functional>

namespace folio::ui {

struct SummaryOptions {
    QString title;
    QStringList pageTexts;    // page 1 first; empty text: a scanned page
    QStringList images;       // image files that go with the first part (vision models)
    qint64 contextTokens = 0; // prompt + answer positions of one request
    int answerTokens = 512;   // the longest answer of one request (at most half the context)
    // Scanned pages (1-based) rendered for the vision projector (page_images.h): they go in as
    // images at their place in their part, their cost counted with the image's rows.
    QHash<int, PageImage> pageImages = {};
    // Seconds on a steady clock for the time left (tests script it); empty: the real clock.
    std::function<double()> clock = {};
};

// One request of the plan.
struct SummaryRequest {
    int stage = 1;  // 1: parts of the document; 2...: combining part summaries
    int stages = 1; // the stages expected (known exactly once the last stage starts)
    int index = 0;  // 0-based within the stage
    int count = 0;  // requests in this stage
    int firstPage = 0, lastPage = 0; // 1-based, inclusive
    int piece = 0, pieces = 0;       // a page read in pieces: piece 1..pieces (0: whole pages)
    QList<ChatTurn> turns;
    qint64 promptTokens = 0; // counted with the counter
    int maxTokens = 0;       // the answer's length limit
};

struct SummaryAnswer {
    enum class Status { Ok, Failed, Cancelled };
    Status status = Status::Ok;
    QString text;
    QString error; // Failed: what went wrong
};

struct SummaryProgress {
    // `stages`: all stages, once known for certain (the last stage has started; a one-part
    // document has one); 0 before: a count that changed mid-job (1/5, then 2/4) misled.
    int stage = 1, stages = 0;
    int part = 1, parts = 1; // 1-based
    int firstPage = 0, lastPage = 0;
    int piece = 0, pieces = 0;
    double etaSeconds = -1; // the whole summary, every stage; < 0: not known yet
    // The whole summary's work (prompt tokens and weighted answer tokens, later stages
    // estimated) and what is done, when this request starts: a caller re-evaluates the time
    // left between requests with its own pipeline/eta EtaEstimator.
    double workDone = 0, workTotal = 0;
};

// A range of pages summarized by one request of stage 1.
struct SummaryPart {
    int firstPage = 0, lastPage = 0;
    int piece = 0, pieces = 0;
    QString text;
};

struct SummaryResult {
    bool ok = false;
    bool cancelled = false;
    QString error;            // names the request that failed (stage, part, pages) and why
    QString summary;          // the final summary alone
    QString markdown;         // the summary followed by its "Parts" section
    QList<SummaryPart> parts; // stage 1, in page order
    int stages = 0;
    int requests = 0;
    qint64 promptTokens = 0; // over all requests
    QStringList notes;       // pages read in pieces, summaries cut to fit, images left out
};

using SummaryAsk = std::function<SummaryAnswer(const SummaryRequest&)>;
using SummaryProgressFn = std::function<void(const SummaryProgress&)>;

SummaryResult summarizeDocument(const SummaryOptions& options, const TokenCounter& counter,
                                const SummaryAsk& ask, const SummaryProgressFn& progress = {});

// Stage 1 alone, without asking: the requests the document's parts take. "" in `error` on
// success; otherwise why no plan fits (a context too small for the prompt's frame).
QList<SummaryRequest> planSummaryParts(const SummaryOptions& options, const TokenCounter& counter,
                                       QString* error, QStringList* notes = nullptr);

// "page 37", "pages 37–52", "page 37 (piece 2 of 3)".
QString summaryRangeText(int firstPage, int lastPage, int piece = 0, int pieces = 0);
// "stage 1/2 · part 3 of 12 · pages 77–115 · about 2 min left"; "stage 1 · part 3 of 12 · …"
// while the number of stages is not known for certain.
QString formatSummaryProgress(const SummaryProgress& progress);

} // namespace folio::ui
