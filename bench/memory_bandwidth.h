#pragma once
// Measures this machine's memory read bandwidth, the yardstick for bandwidth-bound kernels
// (matvec, decode). Benchmarks report their throughput as a ratio to it, measured in the same run.

#include <cstddef>

namespace folio::bench {

struct BandwidthResult {
    double gb_per_s = 0; // best of the repetitions, 1 GB = 1e9 bytes
    size_t bytes = 0;    // bytes read per repetition
    int threads = 1;
};

// Streams `bytes` of memory with `threads` OpenMP threads (summing doubles, so the reads cannot
// be optimised away), `reps` times, and returns the best rate.
BandwidthResult measure_read_bandwidth(size_t bytes, int threads, int reps);

} // namespace folio::bench
