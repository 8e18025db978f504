#pragma once
// The time left of a job (issue #48 §9): the whole job's work units, the units done so far
// and when, the rate measured on them, smoothed towards the recent past (a job that slows down
// 4x is followed within a few steps, not averaged away over everything done before), and an
// estimate that never freezes: when progress is late, the wait so far counts as evidence of a
// slower rate and the estimate grows with the time since the last progress beyond what the rate
// predicted. Time is passed in (seconds on any steady clock), so a test scripts a timeline.
// Used by the summary, background reading and the prompt-reading gauge. Widget-free, no Qt.

namespace folio::ui {

class EtaEstimator {
public:
    // A new job of `total` units of work, observed from `now` on with `done` units already
    // finished (their time unknown: they are not measured).
    void start(double total, double now, double done = 0);
    // The job's total became known better (e.g. the next stage's plan): `total` units in all.
    void setTotal(double total);
    // `done` units (cumulative) are finished at `now`. No change in `done`: nothing measured
    // (the time since the last progress keeps counting).
    void progress(double done, double now);
    // Seconds left at `now`; < 0 while no rate has been measured yet.
    double remaining(double now) const;

    double done() const { return done_; }
    double total() const { return total_; }
    bool started() const { return started_; }
    // The smoothed seconds per unit (< 0: not measured).
    double secondsPerUnit() const { return secondsPerUnit_; }

private:
    // The smoothing's time constant at `now`: a tenth of the time the job has run, ≥ 10 s.
    double timeConstant(double now) const;
    // The rate after one more step of `units` taking `seconds`, finished at `now`.
    double blended(double units, double seconds, double now) const;

    bool started_ = false;
    double total_ = 0, done_ = 0;
    double startTime_ = 0, lastTime_ = 0;
    double secondsPerUnit_ = -1;
    double unitsPerStep_ = 0; // the mean step between progress reports
    int steps_ = 0;
};

} // namespace folio::ui
