#pragma once
// Measures this machine's int8 multiply-accumulate peak, the yardstick for compute-bound kernels
// (the prefill GEMM), as memory_bandwidth.h is for the bandwidth-bound ones (matvec, decode).
//
// A probe is a loop of independent int8 dot-product instructions with nothing else in it, on 1
// thread and on N threads at once: AVX-512 VNNI vpdpbusd on 512-bit registers, AVX-VNNI vpdpbusd
// on 256-bit, and the AVX2 sequence maddubs + madd + add that the AVX2 kernels use to get exact
// int32 sums. One MAC = one u8 × s8 product added.

#include <cstdio>
#include <string>
#include <vector>

namespace folio::bench {

struct Int8Peak {
    std::string instruction; // e.g. "vpdpbusd zmm (AVX-512 VNNI)"
    std::string path;        // the kernel path using it ("avx512", "avx2"; "" for none)
    double gmacs_1 = 0;      // G MAC/s, one thread
    double gmacs_n = 0;      // G MAC/s, `threads` threads together
    int threads = 1;
};

// Every probe this CPU can run, widest first (empty off x86 or without AVX2); best of `reps` runs
// of about 20 ms each.
std::vector<Int8Peak> measure_int8_peaks(int threads, int reps);

// The probe of the kernel path that runs (kernel_path_name(KernelPath::Auto): AVX-512 VNNI's
// vpdpbusd zmm, or AVX2's maddubs + madd + add also where AVX-VNNI exists; the widest on the
// reference path) alone on `threads` threads, one run of about 20 ms: the compute this machine
// gives right now (0 and an empty name without one). bench pairs it with each timed decode run
// as it does the read probe: on the shared VMs the compute available moves by a third within
// minutes while the read bandwidth does not, and decode needs both.
double measure_int8_peak_now(int threads, std::string* instruction);

// Prints the peaks, times a T = 512 prefill matmul (y = W·x, rows × cols) of Q8_0, Q5_0, Q4_K,
// Q5_K, Q6_K, IQ4_XS, Q3_K and Q2_K weights with the kernels KernelPath::Auto picks, on 1 and on
// `threads` threads, and prints each one's share of the peak of the path's probe (as
// measure_int8_peak_now picks it) on as many threads (2 flops = 1 MAC), naming the path. Called
// by `folio-cli bench-kernels`.
void report_gemm_share_of_peak(int threads, long long rows, long long cols, std::FILE* out);

} // namespace folio::bench
