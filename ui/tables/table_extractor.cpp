#include "tables/table_extractor.h"

#include "tables/table_request.h"

namespace folio::ui {

namespace {
// ChatController counts from 1; these ids stay clear of it for any realistic session.
constexpr qint64 kFirstTableRequest = qint64(1) << 40;
} // namespace

TableExtractor::TableExtractor(EngineWorker* worker, QObject* parent)
    : QObject(parent), next_(kFirstTableRequest) {
    connect(this, &TableExtractor::submitRequested, worker, &EngineWorker::submit);
    connect(this, &TableExtractor::cancelRequested, worker, &EngineWorker::cancel);
    connect(worker, &EngineWorker::tokenArrived, this, &TableExtractor::onToken);
    connect(worker, &EngineWorker::failed, this, &TableExtractor::onFailed);
    connect(worker, &EngineWorker::finished, this, &TableExtractor::onFinished);
}

qint64 TableExtractor::extract(const QString& imagePath) {
    cancel();
    current_ = next_++;
    reply_.clear();
    Q_EMIT submitRequested(current_, tableExtractionTurns(imagePath), tableExtractionSettings(),
                           {});
    return current_;
}

void TableExtractor::cancel() {
    if (current_ == 0)
        return;
    Q_EMIT cancelRequested(current_);
    current_ = 0; // its late signals are ignored
}

void TableExtractor::onToken(qint64 requestId, const QString& text) {
    if (requestId == current_)
        reply_ += text;
}

void TableExtractor::onFailed(qint64 requestId, const QString& message) {
    // Some errors (no model, unknown session) come without a finished signal: report now and
    // ignore whatever follows for this request.
    if (requestId != current_)
        return;
    current_ = 0;
    Q_EMIT failed(tr("The model could not answer: %1").arg(message));
}

void TableExtractor::onFinished(qint64 requestId, const RequestStatsQ& stats) {
    if (requestId != current_)
        return;
    current_ = 0;
    if (stats.stopReason == QLatin1String("cancelled")) {
        Q_EMIT failed(tr("Table extraction was stopped."));
        return;
    }
    const QString reply = stats.text.isEmpty() ? reply_ : stats.text;
    Q_EMIT extracted(parseMarkdownTable(reply), reply);
}

} // namespace folio::ui
