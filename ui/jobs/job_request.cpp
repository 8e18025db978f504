#include "jobs/job_request.h"

namespace folio::ui {

JobRequest::JobRequest(EngineWorker* worker, QObject* parent) : QObject(parent), worker_(worker) {
    qRegisterMetaType<JobAnswer>();
    connect(this, &JobRequest::submitRequested, worker, &EngineWorker::submitJob);
    connect(this, &JobRequest::cancelRequested, worker, &EngineWorker::cancel);
    connect(worker, &EngineWorker::tokenArrived, this, &JobRequest::onToken);
    connect(worker, &EngineWorker::failed, this, &JobRequest::onFailed);
    connect(worker, &EngineWorker::finished, this, &JobRequest::onFinished);
}

qint64 JobRequest::start(const QList<ChatTurn>& turns, const GenerationSettings& settings) {
    if (current_ != 0) {
        Q_EMIT cancelRequested(current_);
        current_ = 0; // its late signals are not ours any more
    }
    current_ = worker_->newRequestId();
    text_.clear();
    Q_EMIT submitRequested(current_, turns, settings);
    return current_;
}

void JobRequest::cancel() {
    if (current_ != 0)
        Q_EMIT cancelRequested(current_);
}

void JobRequest::onToken(qint64 requestId, const QString& text) {
    if (requestId == current_ && requestId != 0)
        text_ += text;
}

void JobRequest::onFailed(qint64 requestId, const QString& message) {
    // Some errors (an unknown session) come without a finished signal: report now and ignore
    // whatever follows for this request.
    if (requestId != current_ || requestId == 0)
        return;
    current_ = 0;
    JobAnswer answer;
    answer.status = JobAnswer::Status::Failed;
    answer.text = text_;
    answer.error = message;
    Q_EMIT finished(answer);
}

void JobRequest::onFinished(qint64 requestId, const RequestStatsQ& stats) {
    if (requestId != current_ || requestId == 0)
        return;
    current_ = 0;
    JobAnswer answer;
    answer.stats = stats;
    answer.text = stats.text.isEmpty() ? text_ : stats.text;
    if (stats.stopReason == QLatin1String("cancelled")) {
        answer.status = JobAnswer::Status::Cancelled;
    } else if (stats.stopReason == QLatin1String("error")) {
        answer.status = JobAnswer::Status::Failed;
        answer.error = tr("the request ended with an error");
    }
    Q_EMIT finished(answer);
}

} // namespace folio::ui
