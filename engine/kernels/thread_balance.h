#pragma once
// Shares of a decode region's rows in proportion to how fast each thread has been going.
//
// Decode splits every matvec into one contiguous share of rows per thread (contiguous streams
// are what read fast; dynamic chunks made the FFN 1.6x slower, docs/ARCHITECTURE.md). Equal
// shares assume equal threads, and they are not: on the 2-vCPU VMs one vCPU ran the Q4_K dot
// markedly slower than the other (docs/NUMERICS.md), and the faster thread waited at every
// barrier. Desktop CPUs with performance and efficiency cores differ by more. So each thread
// times its own share, and the next region's shares follow the measured speeds.
//
// Which thread computes a row never changes the row's bits (the same kernel on the same input),
// so the split may follow timing without making results depend on it.
//
// Use: share() before or inside a region (reads only), record() by thread t for itself inside
// the region, update() by one thread after the join. Owned by the caller's scratch (one per
// sequence being evaluated); a KernelContext points at it (kernel_context.h).

#include <array>
#include <cstdint>

namespace folio {

struct RowShare {
    int64_t begin = 0, end = 0;
    int64_t size() const { return end - begin; }
};

class ThreadBalance {
public:
    static constexpr int kMaxThreads = 64; // more threads: equal shares

    // Thread t's rows [begin, end) of n, in proportion to the threads' speeds, cut at
    // multiples of `align` (except n itself). The threads' shares tile [0, n) in order.
    RowShare share(int threads, int64_t n, int64_t align, int t) const;
    // Thread t did `fraction` of the region's work in `seconds` (called by thread t only).
    void record(int t, double fraction, double seconds);
    // Folds the recorded rates into the speeds and clears them.
    void update(int threads);

    // Thread t's speed relative to the team's mean (1 when unmeasured).
    double speed(int t) const { return t < kMaxThreads ? speed_[t] : 1.0; }

private:
    std::array<double, kMaxThreads> speed_ = filled(1.0);
    std::array<double, kMaxThreads> fraction_ = filled(0.0);
    std::array<double, kMaxThreads> seconds_ = filled(0.0);

    static constexpr std::array<double, kMaxThreads> filled(double v) {
        std::array<double, kMaxThreads> a{};
        a.fill(v);
        return a;
    }
};

// Thread t's share by `balance`, or equal shares when it is null: [n·t/threads,
// n·(t+1)/threads), each cut rounded down to `align`.
RowShare row_share(const ThreadBalance* balance, int threads, int64_t n, int64_t align, int t);

// Seconds on a monotonic clock, for the threads' own timing.
double balance_clock();

} // namespace folio
