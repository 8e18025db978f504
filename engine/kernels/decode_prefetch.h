#pragma once
// Decode (one activation row) reads each weight byte once, so a matvec is a stream from memory.
// The hardware prefetchers alone kept the decode kernels well below the read bandwidth on the
// AVX-512 machines (a plain loop of 512-bit loads: 36-41 GB/s with 2 threads, 47-54 GB/s with a
// prefetch 1-4 KiB ahead, same minutes). The one-row kernels therefore ask for the lines
// kDecodePrefetchBytes ahead of the block they read, a few per block step, interleaved with their
// arithmetic (a burst per row from the matmul loop was slower than none). Past the end of a row
// they fetch the next row, past the thread's rows what its next call usually reads.
//
// Measured on the Q4_K_M bench file, 2 threads, alternating runs: tg128 1.05-1.09x with 8 KiB
// (2 and 4 KiB gained less, 16 KiB and prefetching into L2 only less too).
//
// The kernels' translation units are compiled for different instruction sets: the helper is
// static (a copy per file, never one the linker could pick for another file; see
// vec_dot_avx2.cpp) and uses no instruction beyond the baseline.

#include <cstddef>

namespace folio {

inline constexpr std::ptrdiff_t kDecodePrefetchBytes = 8192;

// In a kernel unrolled over NX activation rows: for NX == 1 (decode), the `lines` cache lines
// Distance bytes past p, into L1 (Locality: __builtin_prefetch's, 3 = T0, 0 = non-temporal).
// Kernels over several activation rows reuse each weight line and skip it.
template <int NX, std::ptrdiff_t Distance = kDecodePrefetchBytes, int Locality = 3>
static inline void prefetch_ahead(const void* p, int lines) {
    if constexpr (NX == 1)
        for (int i = 0; i < lines; ++i)
            __builtin_prefetch(static_cast<const char*>(p) + Distance + 64 * i, 0, Locality);
}

// Q4_K's one-row step asks for its lines 4 KiB ahead with the non-temporal hint instead (into L1,
// kept out of the outer caches' replacement order). Measured in one process on the Q4_K_M bench
// file, decode alternating with the T0 8 KiB prefetch 30 times, ratio medians (an A/A control of
// the method 1.000 / 1.005): 1.002-1.060 over eight repeats (median 1.04), 1.05-1.12 in three more
// with the hint on every kernel. The same hint made no difference to Q5_K, Q6_K and Q8_0
// (0.99-1.05) and 8 KiB non-temporal lost on Q8_0 and MXFP4 (0.94), so it is Q4_K's alone.
inline constexpr std::ptrdiff_t kDecodePrefetchNtaBytes = 4096;

} // namespace folio
