#pragma once
// <immintrin.h> for the *_avx512.cpp files. GCC 12 warns (-Wuninitialized / -Wmaybe-uninitialized)
// inside its own AVX-512 intrinsic headers, where the `_mm512_undefined_*()` idiom reads a
// deliberately uninitialised register; the warnings say nothing about our code, so they are
// silenced for these translation units only. Include this instead of <immintrin.h> there.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>
