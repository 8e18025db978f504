#include "kernels/thread_balance.h"

#include <algorithm>
#include <chrono>

namespace folio {

namespace {

// Weight of a region's measurement against the history. Regions come ~40 times per token, so
// the speeds follow a change of machine load within a few tokens; one region cannot move a
// speed by more than a factor kMaxStep (a thread the OS took off its core for a while).
constexpr double kNewWeight = 0.2;
constexpr double kMaxStep = 2.0;
constexpr double kMinSpeed = 0.25, kMaxSpeed = 4.0;

int64_t round_down(int64_t v, int64_t align) {
    return align > 1 ? v / align * align : v;
}

} // namespace

RowShare row_share(const ThreadBalance* balance, int threads, int64_t n, int64_t align, int t) {
    if (balance != nullptr && threads <= ThreadBalance::kMaxThreads)
        return balance->share(threads, n, align, t);
    auto cut = [&](int i) {
        return i >= threads ? n : std::min(n, round_down(n * i / threads, align));
    };
    return {cut(t), cut(t + 1)};
}

double balance_clock() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

RowShare ThreadBalance::share(int threads, int64_t n, int64_t align, int t) const {
    double total = 0, before = 0;
    for (int i = 0; i < threads; ++i) {
        total += speed_[i];
        if (i < t)
            before += speed_[i];
    }
    // Cut i at n · (speeds of threads < i) / (all speeds): non-decreasing in i, so the shares
    // tile [0, n) in order whatever the rounding.
    auto cut = [&](int i, double sum) {
        if (i <= 0)
            return int64_t{0};
        if (i >= threads)
            return n;
        return std::min(
            n, round_down(static_cast<int64_t>(static_cast<double>(n) * sum / total), align));
    };
    return {cut(t, before), cut(t + 1, before + speed_[t])};
}

void ThreadBalance::record(int t, double fraction, double seconds) {
    if (t < 0 || t >= kMaxThreads)
        return;
    fraction_[t] += fraction;
    seconds_[t] += seconds;
}

void ThreadBalance::update(int threads) {
    threads = std::min(threads, kMaxThreads);
    // Rate = share of the work per second; a thread with no work or no time tells nothing,
    // and then the region does not count.
    double mean_rate = 0;
    int measured = 0;
    for (int t = 0; t < threads; ++t)
        if (fraction_[t] > 0 && seconds_[t] > 0) {
            mean_rate += fraction_[t] / seconds_[t];
            ++measured;
        }
    if (measured == threads && threads > 1) {
        mean_rate /= measured;
        double mean_speed = 0;
        for (int t = 0; t < threads; ++t) {
            const double relative = fraction_[t] / seconds_[t] / mean_rate; // 1 = average
            const double target = std::clamp(relative, speed_[t] / kMaxStep, speed_[t] * kMaxStep);
            speed_[t] = std::clamp((1 - kNewWeight) * speed_[t] + kNewWeight * target, kMinSpeed,
                                   kMaxSpeed);
            mean_speed += speed_[t];
        }
        mean_speed /= threads;
        for (int t = 0; t < threads; ++t)
            speed_[t] /= mean_speed;
    }
    for (int t = 0; t < threads; ++t)
        fraction_[t] = seconds_[t] = 0;
}

} // namespace folio
