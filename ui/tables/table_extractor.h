#pragma once
// Runs one "Extract table" request through the EngineWorker (the same backend as the chat:
// the embedded engine with a vision projector, or a server that takes images) and parses the
// answer with parseMarkdownTable. Its request ids are far above the chat's, so the chat's
// signals and these never mix.

#include "backend/engine_worker.h"
#include "pipeline/markdown_table.h"

#include <QObject>
#include <QString>

namespace folio::ui {

class TableExtractor : public QObject {
    Q_OBJECT
public:
    explicit TableExtractor(EngineWorker* worker, QObject* parent = nullptr);

    // Asks the model for the table in `imagePath`; a request still running is cancelled.
    // Returns the request id.
    qint64 extract(const QString& imagePath);
    void cancel();
    bool isRunning() const { return current_ != 0; }

Q_SIGNALS:
    // The answer arrived: `parse` says whether it is a table; `reply` is the model's text.
    void extracted(const folio::ui::TableParse& parse, const QString& reply);
    // No answer: the backend failed or the request was cancelled.
    void failed(const QString& message);
    // To the worker (queued across threads).
    void submitRequested(qint64 requestId, const QList<folio::ui::ChatTurn>& turns,
                         const folio::ui::GenerationSettings& settings,
                         const QStringList& dataSources);
    void cancelRequested(qint64 requestId);

private:
    void onToken(qint64 requestId, const QString& text);
    void onFailed(qint64 requestId, const QString& message);
    void onFinished(qint64 requestId, const RequestStatsQ& stats);

    qint64 current_ = 0;
    qint64 next_;
    QString reply_;
};

} // namespace folio::ui
