#pragma once
// One request of a long job (a summary's part, a table extraction, a report's section) through
// the EngineWorker's job lane: its id comes from the worker, so its signals are its own; it runs
// on the jobs' engine session, so the chat's cached prefix stays where it is. The text is
// collected as it streams; `finished` comes once per request with the outcome. Every job in
// jobs/ talks to the worker through this class and nothing else. Lives on the GUI thread.

#include "backend/engine_worker.h"

#include <QList>
#include <QObject>
#include <QString>

namespace folio::ui {

struct JobAnswer {
    enum class Status { Ok, Failed, Cancelled };
    Status status = Status::Ok;
    QString text;  // the answer (Ok), or what streamed before a failure
    QString error; // why it failed (Failed)
    RequestStatsQ stats;
};

class JobRequest : public QObject {
    Q_OBJECT
public:
    explicit JobRequest(EngineWorker* worker, QObject* parent = nullptr);

    // Sends `turns` (a request still running is cancelled first and reports nothing more).
    // Returns the request's id.
    qint64 start(const QList<folio::ui::ChatTurn>& turns,
                 const folio::ui::GenerationSettings& settings);
    // Cancels the request; `finished` reports it as Cancelled once the backend has stopped.
    void cancel();
    bool isRunning() const { return current_ != 0; }
    qint64 currentId() const { return current_; }

Q_SIGNALS:
    void finished(const folio::ui::JobAnswer& answer);
    // To the worker (queued across threads).
    void submitRequested(qint64 requestId, const QList<folio::ui::ChatTurn>& turns,
                         const folio::ui::GenerationSettings& settings);
    void cancelRequested(qint64 requestId);

private:
    void onToken(qint64 requestId, const QString& text);
    void onFailed(qint64 requestId, const QString& message);
    void onFinished(qint64 requestId, const RequestStatsQ& stats);

    EngineWorker* worker_;
    qint64 current_ = 0;
    QString text_;
};

} // namespace folio::ui

Q_DECLARE_METATYPE(folio::ui::JobAnswer)
