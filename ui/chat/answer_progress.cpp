// One answer's phases and the prompt-reading ETA for the gauge; see answer_progress.h.
#include "chat/answer_progress.h"

#include <QTimer>

#include <chrono>

namespace folio::ui {

namespace {
double steadySeconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}
} // namespace

AnswerProgress::AnswerProgress(QObject* parent, Clock clock)
    : QObject(parent), clock_(clock ? std::move(clock) : Clock(steadySeconds)),
      timer_(new QTimer(this)) {
    timer_->setInterval(1000);
    connect(timer_, &QTimer::timeout, this, &AnswerProgress::tick);
}

void AnswerProgress::restartFor(qint64 requestId) {
    request_ = requestId;
    phase_ = Phase::Idle;
    done_ = total_ = tokens_ = 0;
    engineEta_ = -1;
    eta_ = EtaEstimator{};
}

void AnswerProgress::prefill(qint64 requestId, qint64 done, qint64 total, double engineEta) {
    if (requestId != request_)
        restartFor(requestId);
    if (phase_ == Phase::Writing)
        return; // a late chunk report: the answer is already streaming
    const double now = clock_();
    if (!eta_.started()) // the first report: when its chunk began is not known here
        eta_.start(double(total), now, double(done));
    else
        eta_.progress(double(done), now);
    eta_.setTotal(double(total));
    done_ = done;
    total_ = total;
    engineEta_ = engineEta;
    engineEtaAt_ = now;
    phase_ = Phase::Reading;
    if (!timer_->isActive())
        timer_->start();
    Q_EMIT reading(done_, total_, remaining(now));
}

double AnswerProgress::remaining(double now) const {
    const double measured = eta_.remaining(now);
    if (measured >= 0 || engineEta_ < 0)
        return measured;
    // Only the engine's first figure so far: it counts down, then grows with the wait.
    const double since = now - engineEtaAt_;
    return since <= engineEta_ ? engineEta_ - since : since - engineEta_;
}

void AnswerProgress::token(qint64 requestId) {
    if (requestId != request_)
        restartFor(requestId);
    phase_ = Phase::Writing;
    timer_->stop();
    Q_EMIT writing(++tokens_);
}

void AnswerProgress::stop() {
    timer_->stop();
    phase_ = Phase::Idle;
    request_ = 0;
}

void AnswerProgress::tick() {
    if (phase_ != Phase::Reading)
        return;
    Q_EMIT reading(done_, total_, remaining(clock_()));
}

} // namespace folio::ui
