#pragma once
// <immintrin.h> for the *_avx512.cpp files. GCC 12 warns (-Wuninitialized / -Wmaybe-uninitialized)
// inside its own AVX-512 intrinsic headers, where the `_mm512_undefined_*()` idiom reads a
// deliberately uninitialised register; the warnings say nothing about our code, so they are
// silenced for these translation units only. Include this instead of <immintrin.h> there. It also
// holds the small AVX-512 helpers several of those files use.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>

namespace folio::avx512 {

namespace { // internal linkage, as avx2_intrinsics.h

// lo in the 16 int16 lanes of the low 256 bits, hi in those of the high 256 bits.
inline __m512i int16_halves(int lo, int hi) {
    return _mm512_inserti64x4(_mm512_set1_epi16(static_cast<short>(lo)),
                              _mm256_set1_epi16(static_cast<short>(hi)), 1);
}

} // namespace

} // namespace folio::avx512
