#pragma once
// Chart rates from the engine's cumulative counters (EngineStats::prefill_tokens_total, ...),
// not from one step's size over the poll interval: a 512-token prefill chunk that took 5 s
// lands in one 250 ms poll, and dividing it by the poll gave ~2,000 t/s for a ~100 t/s prompt.
//
// A point is made when a counter moved: the tokens since the last point, divided by the wall
// time between the two polls (at least a second apart while the work goes on, so a slow decode
// that moves 0, 1 or 2 tokens per poll does not zigzag). When the engine was idle somewhere in that
// interval (a poll saw no work), wall time would count the idle time: the point divides by the
// engine's busy seconds for those tokens instead, and when the idle time came before it (or the
// engine spent under a quarter of the interval on this series) it starts a new line segment:
// the chart breaks the line over the gap and never draws a zero.
// Plus the chart's axis arithmetic: ticks at 1, 2 or 5 × 10^k.

#include <QtGlobal>

#include <optional>

namespace folio::ui {

struct EngineStatsQ;

struct RatePoint {
    double rate = 0;            // tokens per second
    bool startsSegment = false; // idle time lies between this point and the one before
};

// One counter (prefill or decode tokens) and the worker's busy seconds for it.
class CounterRate {
public:
    // One poll: the engine's clock (s), the counter, its busy seconds, and whether the engine had
    // work at the poll (state prefill or decode). A point when the counter moved.
    std::optional<RatePoint> feed(double wallSeconds, qint64 total, double busySeconds,
                                  bool engineBusy);
    void reset() { have_ = false; }

private:
    bool have_ = false;
    double lastWall_ = 0, lastBusy_ = 0;
    qint64 lastTotal_ = 0;
    bool idleBefore_ = false; // a poll at or after the last move saw the engine idle
};

struct ThroughputPoint {
    std::optional<RatePoint> prefill, decode;
};

// Both series from successive EngineStatsQ snapshots.
class ThroughputRates {
public:
    ThroughputPoint feed(const EngineStatsQ& stats);

private:
    CounterRate prefill_, decode_;
};

// A value axis from 0 with at most `maxIntervals` intervals of 1, 2 or 5 × 10^k covering
// `maxValue`: {max 120, step 20} for 118.
struct NiceAxis {
    double max = 1;
    double step = 1;
    int intervals() const { return qRound(max / step); }
};
NiceAxis niceAxis(double maxValue, int maxIntervals = 6);

} // namespace folio::ui
