// The time left of a job from its measured, smoothed rate; see eta.h.
#include "core/pipeline/eta.h"

#include <algorithm>
#include <cmath>

namespace folio::ui {

namespace {
constexpr double kMinTimeConstant = 10.0; // seconds
constexpr double kTimeConstantShare = 0.1;
} // namespace

void EtaEstimator::start(double total, double now, double done) {
    *this = EtaEstimator{};
    started_ = true;
    done_ = std::max(0.0, done);
    total_ = std::max(done_, total);
    startTime_ = lastTime_ = now;
}

void EtaEstimator::setTotal(double total) {
    total_ = std::max(total, done_);
}

double EtaEstimator::timeConstant(double now) const {
    return std::max(kMinTimeConstant, kTimeConstantShare * (now - startTime_));
}

double EtaEstimator::blended(double units, double seconds, double now) const {
    const double sample = seconds / units;
    if (secondsPerUnit_ < 0)
        return sample;
    // Exponential smoothing in time: a step of `seconds` weighs 1 - e^(-seconds / tau).
    const double weight = 1.0 - std::exp(-seconds / timeConstant(now));
    return weight * sample + (1.0 - weight) * secondsPerUnit_;
}

void EtaEstimator::progress(double done, double now) {
    if (!started_)
        start(std::max(total_, done), now);
    const double units = done - done_;
    if (units <= 0)
        return;
    const double seconds = std::max(0.0, now - lastTime_);
    secondsPerUnit_ = blended(units, seconds, now);
    unitsPerStep_ = (unitsPerStep_ * steps_ + units) / (steps_ + 1);
    ++steps_;
    done_ = done;
    total_ = std::max(total_, done_);
    lastTime_ = now;
}

double EtaEstimator::remaining(double now) const {
    if (secondsPerUnit_ < 0)
        return -1;
    const double left = std::max(0.0, total_ - done_);
    if (left <= 0)
        return 0;
    const double since = std::max(0.0, now - lastTime_);
    // When the next report was due at the measured rate.
    const double due = unitsPerStep_ * secondsPerUnit_;
    if (since <= due)
        return std::max(0.0, left * secondsPerUnit_ - since);
    // Late: as if a step finished now (a lower bound on how slow the current one is), the rest
    // at that rate, plus the time past due (the step in progress is not over).
    const double rate = blended(unitsPerStep_, since, now);
    return std::max(0.0, left - unitsPerStep_) * rate + (since - due);
}

} // namespace folio::ui
