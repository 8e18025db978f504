#pragma once
// How many threads the kernels should use for the next step: the configured count, less the
// CPUs other work keeps busy. The kernels' OpenMP teams spin at their barriers; when another
// process (or the GUI, or the PDF loader) holds one of two cores, a two-thread team waits at
// every barrier for a thread the scheduler has taken off its core. Measured on the deepseek2
// bench file with compiles running beside it (issue #24): decode fell from ~90 to 2–4 t/s with
// two threads and ran at ~37 t/s with one. So the engine measures, every half second, how
// much CPU time the rest of the machine used (/proc/stat less its own team's threads, from
// /proc/self/task/TID/stat) and uses only the cores that were free.
//
// FOLIO_ADAPTIVE_THREADS=0 turns this off (always the configured count), for A/B measurement.
// Not Linux: always the configured count. Owned by the model slot; the engine's worker thread
// alone calls it (its OpenMP team is the one measured).

#include <chrono>
#include <cstdint>
#include <vector>

namespace folio {

// /proc/stat's first line and the team's ticks at one moment.
struct CpuSample {
    uint64_t busy = 0;  // all CPUs: user + nice + system + irq + softirq + steal
    uint64_t total = 0; // busy + idle + iowait
    uint64_t team = 0;  // utime + stime of the team's threads
};

// The threads to use given two samples over all `n_cpus`: floor(free + 0.35) where free =
// n_cpus − (others' share of the interval), clamped to [1, configured]. Pure, for tests.
int threads_for_load(const CpuSample& before, const CpuSample& after, int n_cpus, int configured,
                     double* others_cpus = nullptr);

class CpuShare {
public:
    explicit CpuShare(int configured = 1);

    // The count for the next step (re-measured when the last measurement is half a second
    // old). Fewer threads take effect at once; more only after two measurements agree.
    int threads();
    int configured() const { return configured_; }
    // CPUs' worth of time the rest of the machine used over the last interval (0 until
    // measured).
    double others_cpus() const { return others_; }
    int current() const { return current_; }

private:
    bool sample(CpuSample& out);
    void find_team();

    int configured_;
    int current_;
    bool adapt_;
    int n_cpus_ = 0;
    int want_more_ = 0; // consecutive measurements that asked for more threads
    double others_ = 0;
    std::vector<int> team_; // thread ids of the OpenMP team started from the worker
    CpuSample last_;
    bool have_last_ = false;
    std::chrono::steady_clock::time_point last_time_;
};

} // namespace folio
