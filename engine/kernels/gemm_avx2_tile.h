#pragma once
// Internal to the AVX2 GEMM kernels (gemm_q8_0_avx2.cpp, gemm_kquant_avx2.cpp): what they share.
// Their register tile is one duo of 2 weight rows × kDuoTokens tokens: per token one 256-bit float
// accumulator whose lanes 4r .. 4r+3 are row r's 4 accumulators (the AVX2 vec_dot kernel's), kept
// in an L1 block between K slices. Internal linkage only (include from *_avx2.cpp files alone:
// no AVX-compiled inline symbol may be merged into generic code).

#include "kernels/gemm_driver.h"

#include <immintrin.h>

#include <cstddef>
#include <cstdint>

namespace folio::avx2 {

namespace {

constexpr int kDuoTokens = 4;          // tokens per register tile (= kGemmTokenPad)
constexpr int kDuos = kGemmRows / 2;   // duos of 2 rows per packed chunk
constexpr int64_t kDuoTokenBlock = 64; // tokens whose float accumulators stay in L1 (16 KB)
static_assert(kDuoTokens == kGemmTokenPad && kGemmRows % 4 == 0);

// An empty asm that takes and gives v in a register: GCC may not reassociate a chain of integer
// adds across it (it otherwise computes all products of a group first and spills them).
inline void pin(__m256i& v) {
    __asm__("" : "+x"(v));
}

inline __m256i bcast128(const uint8_t* p) {
    return _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
}

// (acc0 + acc2) + (acc1 + acc3) of each row's 4 lanes of a, as the AVX2 vec_dot kernel's movehl /
// movehdup reduction.
inline void duo_sums(__m256 a, float (&out)[2]) {
    __m256 s = _mm256_add_ps(a, _mm256_permute_ps(a, 0x4E));
    s = _mm256_add_ps(s, _mm256_permute_ps(s, 0xB1));
    out[0] = _mm256_cvtss_f32(s);
    out[1] = _mm_cvtss_f32(_mm256_extractf128_ps(s, 1));
}

// The chunk loop: token blocks of kDuoTokenBlock, K in slices of `slice` of its `units` (groups or
// super-blocks; the chunk's packed weights of one slice stay in L1 while the token quads stream
// past), every duo against every token quad. accumulate(u0, u1, duo, t0, acc) adds units
// [u0, u1) of a duo against tokens t0 .. t0+3 to its accumulators acc[8·t ..];
// finish(duo, t0, acc, res) gives res[t][r] from them. y[t·y_stride + r] for the valid rows.
template <typename Accumulate, typename Finish>
inline void duo_chunk(int64_t units, int64_t slice, int64_t rows_valid, int64_t n_tokens, float* y,
                      int64_t y_stride, Accumulate accumulate, Finish finish) {
    const int64_t duos = (rows_valid + 1) / 2;
    alignas(32) float acc[kDuoTokenBlock / kDuoTokens][kDuos][kDuoTokens * 8];
    for (int64_t tb0 = 0; tb0 < n_tokens; tb0 += kDuoTokenBlock) {
        const int64_t ntb = n_tokens - tb0 < kDuoTokenBlock ? n_tokens - tb0 : kDuoTokenBlock;
        const int64_t quads = (ntb + kDuoTokens - 1) / kDuoTokens;
        for (int64_t tq = 0; tq < quads; ++tq)
            for (int64_t p = 0; p < duos; ++p)
                for (float& v : acc[tq][p])
                    v = 0.0f;
        for (int64_t u0 = 0; u0 < units; u0 += slice) {
            const int64_t u1 = units - u0 < slice ? units : u0 + slice;
            for (int64_t tq = 0; tq < quads; ++tq)
                for (int64_t p = 0; p < duos; ++p)
                    accumulate(u0, u1, p, tb0 + tq * kDuoTokens, acc[tq][p]);
        }
        for (int64_t tq = 0; tq < quads; ++tq)
            for (int64_t p = 0; p < duos; ++p) {
                const int64_t t0 = tb0 + tq * kDuoTokens;
                float res[kDuoTokens][2];
                finish(p, t0, acc[tq][p], res);
                const int64_t nt = n_tokens - t0 < kDuoTokens ? n_tokens - t0 : kDuoTokens;
                const int64_t nr = rows_valid - 2 * p < 2 ? rows_valid - 2 * p : 2;
                for (int64_t t = 0; t < nt; ++t)
                    for (int64_t r = 0; r < nr; ++r)
                        y[(t0 + t) * y_stride + 2 * p + r] = res[t][r];
            }
    }
}

} // namespace

} // namespace folio::avx2
