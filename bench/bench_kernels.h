#pragma once
// `folio-cli bench-kernels`: matvec throughput of every weight type in GB/s of weight bytes
// streamed, next to this machine's memory read bandwidth measured in the same run, plus matmul
// (prefill) GFLOP/s.

#include <cstdint>
#include <cstdio>

namespace folio::bench {

struct BenchKernelsOptions {
    int threads = 2;
    int64_t rows = 8192;    // N: output rows of the weight
    int64_t cols = 4096;    // K: elements per row (multiple of 256)
    int reps = 7;           // timed repetitions after one warm-up (best and median reported)
    bool prefill = true;    // also time T = 64 and T = 512 matmuls
    bool gemm_only = false; // only the int8 peak and the T = 512 GEMMs' share of it
};

// Prints the report to `out`; returns 0 (or 1 with a message when the options are unusable).
int run_bench_kernels(const BenchKernelsOptions& options, std::FILE* out);

} // namespace folio::bench
