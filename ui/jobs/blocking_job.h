#pragma once
// A JobRequest asked from a plan's own thread (a summary's or a report's): ask() hands the
// request to the GUI thread, where the JobRequest lives, and waits for its answer; stop() (on the
// GUI thread) cancels the request being answered and makes every later ask() return Cancelled
// at once, so the plan ends at its next step.

#include "jobs/job_request.h"

#include <condition_variable>
#include <mutex>

namespace folio::ui {

class BlockingJob : public QObject {
    Q_OBJECT
public:
    explicit BlockingJob(EngineWorker* worker, QObject* parent = nullptr);

    // Before a plan starts (GUI thread): not stopping.
    void reset();
    // From the plan's thread: one request, waited for.
    JobAnswer ask(const QList<ChatTurn>& turns, const GenerationSettings& settings);
    // GUI thread.
    void stop();

private:
    void onAnswer(const JobAnswer& answer);

    JobRequest* job_;
    std::mutex m_;
    std::condition_variable cv_;
    bool answered_ = false;
    bool stopping_ = false;
    JobAnswer answer_;
};

} // namespace folio::ui
