#include "jobs/blocking_job.h"

namespace folio::ui {

BlockingJob::BlockingJob(EngineWorker* worker, QObject* parent)
    : QObject(parent), job_(new JobRequest(worker, this)) {
    connect(job_, &JobRequest::finished, this, &BlockingJob::onAnswer);
}

void BlockingJob::reset() {
    std::lock_guard lk(m_);
    stopping_ = false;
}

JobAnswer BlockingJob::ask(const QList<ChatTurn>& turns, const GenerationSettings& settings) {
    JobAnswer cancelled;
    cancelled.status = JobAnswer::Status::Cancelled;
    {
        std::lock_guard lk(m_);
        if (stopping_)
            return cancelled;
        answered_ = false;
        answer_ = JobAnswer{};
    }
    QMetaObject::invokeMethod(this, [this, turns, settings] {
        // On the GUI thread, as stop(): a stop before this point leaves nothing to cancel.
        {
            std::lock_guard lk(m_);
            if (stopping_)
                return;
        }
        job_->start(turns, settings);
    });
    std::unique_lock lk(m_);
    cv_.wait(lk, [this] { return answered_ || stopping_; });
    if (stopping_)
        return cancelled;
    return answer_;
}

void BlockingJob::stop() {
    {
        std::lock_guard lk(m_);
        stopping_ = true;
        cv_.notify_all();
    }
    job_->cancel(); // the request being answered, if any (both run on the GUI thread)
}

void BlockingJob::onAnswer(const JobAnswer& answer) {
    std::lock_guard lk(m_);
    answer_ = answer;
    answered_ = true;
    cv_.notify_all();
}

} // namespace folio::ui
