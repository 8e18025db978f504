#include "devices/throughput_rates.h"

#include "backend/engine_stats_q.h"

#include <cmath>

namespace folio::ui {

namespace {
// Below this share of the wall time spent on a series, an interval holds a gap: interleaved
// prefill and decode give each well over it, a prompt after a minute of decoding far less.
constexpr double kMinBusyShare = 0.25;
// The shortest interval a point covers while the engine keeps working (seconds).
constexpr double kMinInterval = 1.0;
} // namespace

std::optional<RatePoint> CounterRate::feed(double wallSeconds, qint64 total, double busySeconds,
                                           bool engineBusy) {
    if (!have_ || total < lastTotal_ || wallSeconds < lastWall_) {
        // The first poll, or another engine (counters restart): a new base, no point.
        have_ = true;
        lastWall_ = wallSeconds;
        lastTotal_ = total;
        lastBusy_ = busySeconds;
        idleBefore_ = !engineBusy;
        return std::nullopt;
    }
    if (total == lastTotal_) {
        idleBefore_ = idleBefore_ || !engineBusy;
        return std::nullopt;
    }
    // A slow decode moves 0, 1 or 2 tokens per 250 ms poll: while the work goes on, wait for
    // at least kMinInterval so a point averages over several polls.
    if (engineBusy && !idleBefore_ && wallSeconds - lastWall_ < kMinInterval)
        return std::nullopt;
    const double tokens = double(total - lastTotal_);
    const double wall = wallSeconds - lastWall_;
    const double busy = busySeconds - lastBusy_;
    // The engine may have been busy with the other series all along (a long answer, then a
    // new prompt): little of the interval on this one is a gap too.
    const bool gap = idleBefore_ || busy < kMinBusyShare * wall;
    const bool idleInside = gap || !engineBusy;
    lastWall_ = wallSeconds;
    lastTotal_ = total;
    lastBusy_ = busySeconds;
    idleBefore_ = !engineBusy;
    // Idle time inside the interval: the engine's own time on these tokens.
    const double seconds = idleInside ? busy : wall;
    if (seconds <= 0)
        return std::nullopt;
    return RatePoint{tokens / seconds, gap};
}

ThroughputPoint ThroughputRates::feed(const EngineStatsQ& s) {
    const bool busy = s.state == QLatin1String("prefill") || s.state == QLatin1String("decode");
    ThroughputPoint out;
    out.prefill =
        prefill_.feed(s.snapshotSeconds, s.prefillTokensTotal, s.prefillBusySeconds, busy);
    out.decode = decode_.feed(s.snapshotSeconds, s.decodeTokensTotal, s.decodeBusySeconds, busy);
    return out;
}

NiceAxis niceAxis(double maxValue, int maxIntervals) {
    if (!(maxValue > 0) || !std::isfinite(maxValue))
        return {};
    maxIntervals = std::max(1, maxIntervals);
    // Smallest step of 1, 2 or 5 × 10^k with ceil(maxValue / step) <= maxIntervals.
    double decade = std::pow(10.0, std::floor(std::log10(maxValue / maxIntervals)));
    for (;;) {
        for (double m : {1.0, 2.0, 5.0}) {
            const double step = m * decade;
            // A little tolerance so 120 / 20 is 6 intervals, not 6.000000001.
            const double n = std::ceil(maxValue / step - 1e-9);
            if (n <= maxIntervals)
                return {std::max(1.0, n) * step, step};
        }
        decade *= 10;
    }
}

} // namespace folio::ui
