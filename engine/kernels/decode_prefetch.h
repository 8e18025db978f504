#pragma once
// Decode (one activation row) reads each weight byte once, so a matvec is a stream from memory.
// The hardware prefetchers alone kept the decode kernels well below the read bandwidth on the
// AVX-512 machines (figures: docs/NUMERICS.md, "Kernel measurements"). The one-row kernels
// therefore ask for the lines kDecodePrefetchBytes ahead of the block they read, a few per block
// step, interleaved with their arithmetic (a burst per row from the matmul loop was slower than
// none). Past the end of a row they fetch the next row, past the thread's rows what its next call
// usually reads. 8 KiB gained the most of the distances tried (docs/NUMERICS.md).
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
// kept out of the outer caches' replacement order): faster for Q4_K decode, no gain or a loss for
// the other types (docs/NUMERICS.md), so it is Q4_K's alone.
inline constexpr std::ptrdiff_t kDecodePrefetchNtaBytes = 4096;

} // namespace folio
