// Q1_0 and Q2_0 weights · Q8_0 activations on AVX2 (tensor/quant_blocks_q1_q2.h has the
// layouts). Each 32-element activation block meets 32 weight values decoded to bytes in
// registers; the integer sum per block is the reference's, scaled by d_w·d_x into one float
// accumulator per activation row (lanes added in hsum's order at the end).
#include "kernels/vec_dot_q1_q2_avx2.h"

#include "kernels/avx2_intrinsics.h"
#include "kernels/nx_dispatch.h"
#include "tensor/quant_blocks.h"
#include "tensor/quant_blocks_q1_q2.h"

#include <cstring>

namespace folio::avx2 {

namespace {

// Σ over the 32 bytes of v (signed), as 8 int32 lanes.
inline __m256i sum_i8(__m256i v) {
    return dot_u8_i8(_mm256_set1_epi8(1), v);
}

// Q1_0: 4 bytes of sign bits (elements 0..31 of a quarter block) -> +1 where the bit is clear,
// −1 where set: the negated weight signs, for _mm256_sign_epi8.
inline __m256i q1_neg_signs(const uint8_t* bits) {
    uint32_t b;
    std::memcpy(&b, bits, 4);
    const __m256i spread =
        _mm256_shuffle_epi8(_mm256_set1_epi32(static_cast<int>(b)),
                            _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2,
                                             2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3));
    const __m256i mask = _mm256_set1_epi64x(0x8040201008040201LL);
    const __m256i set = _mm256_cmpeq_epi8(_mm256_and_si256(spread, mask), mask);
    return _mm256_or_si256(set, _mm256_set1_epi8(1));
}

template <int NX> struct Q1Fn {
    static void run(int64_t k, const void* w, const void* x, size_t xs, float* out, int64_t os) {
        const auto* wb = static_cast<const BlockQ1_0*>(w);
        const BlockQ8_0* xr[NX];
        __m256 acc[NX];
        for (int j = 0; j < NX; ++j) {
            xr[j] = x_row<BlockQ8_0>(x, xs, j);
            acc[j] = _mm256_setzero_ps();
        }
        for (int64_t b = 0; b < k / kQK1_0; ++b) {
            const float dw = h2f(wb[b].d);
            for (int s = 0; s < kQK1_0 / kQK8_0; ++s) {
                const __m256i neg = q1_neg_signs(wb[b].qs + 4 * s);
                for (int j = 0; j < NX; ++j) {
                    const BlockQ8_0& a = xr[j][4 * b + s];
                    // Σ −w·x, so the scale is subtracted.
                    const __m256i p = sum_i8(_mm256_sign_epi8(load256(a.qs), neg));
                    acc[j] = _mm256_fnmadd_ps(_mm256_set1_ps(dw * h2f(a.d)), _mm256_cvtepi32_ps(p),
                                              acc[j]);
                }
            }
        }
        for (int j = 0; j < NX; ++j)
            out[j * os] = hsum(acc[j]);
    }
};

// Q2_0: 8 bytes of 2-bit codes (elements 0..31 of half a block) -> 32 bytes of codes 0..3 in
// element order. 32-bit lane L takes bytes 4·(L / 4) .. +3 shifted right by 2·(L % 4), so byte
// k of lane L holds element 4·(4·(L / 4) + k) + L % 4; a 4 × 4 transpose per 128-bit lane puts
// them in order.
inline __m256i q2_codes(const uint8_t* qs) {
    int64_t b;
    std::memcpy(&b, qs, 8);
    const __m256i bytes = _mm256_shuffle_epi8(
        _mm256_set1_epi64x(b), _mm256_setr_epi8(0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 4,
                                                5, 6, 7, 4, 5, 6, 7, 4, 5, 6, 7, 4, 5, 6, 7));
    const __m256i codes = _mm256_and_si256(
        _mm256_srlv_epi32(bytes, _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6)), _mm256_set1_epi8(3));
    return _mm256_shuffle_epi8(codes, _mm256_setr_epi8(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7,
                                                       11, 15, 0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10,
                                                       14, 3, 7, 11, 15));
}

template <int NX> struct Q2Fn {
    static void run(int64_t k, const void* w, const void* x, size_t xs, float* out, int64_t os) {
        const auto* wb = static_cast<const BlockQ2_0*>(w);
        const BlockQ8_0* xr[NX];
        __m256 acc[NX];
        for (int j = 0; j < NX; ++j) {
            xr[j] = x_row<BlockQ8_0>(x, xs, j);
            acc[j] = _mm256_setzero_ps();
        }
        const __m256i ones = _mm256_set1_epi8(1);
        const __m256i ones16 = _mm256_set1_epi16(1);
        for (int64_t b = 0; b < k / kQK2_0; ++b) {
            const float dw = h2f(wb[b].d);
            for (int s = 0; s < kQK2_0 / kQK8_0; ++s) {
                const __m256i c = q2_codes(wb[b].qs + 8 * s);
                for (int j = 0; j < NX; ++j) {
                    const BlockQ8_0& a = xr[j][2 * b + s];
                    const __m256i q = load256(a.qs);
                    // Σ (c − 1)·x = Σ c·x − Σ x, both as int16 pairs (|·| ≤ 3·127·2).
                    const __m256i p16 =
                        _mm256_sub_epi16(_mm256_maddubs_epi16(c, q), _mm256_maddubs_epi16(ones, q));
                    const __m256i p = _mm256_madd_epi16(p16, ones16);
                    acc[j] = _mm256_fmadd_ps(_mm256_set1_ps(dw * h2f(a.d)), _mm256_cvtepi32_ps(p),
                                             acc[j]);
                }
            }
        }
        for (int j = 0; j < NX; ++j)
            out[j * os] = hsum(acc[j]);
    }
};

} // namespace

void dot_q1_0(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    by_nx<Q1Fn>(nx, k, w, x, xs, out, os);
}

void dot_q2_0(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    by_nx<Q2Fn>(nx, k, w, x, xs, out, os);
}

} // namespace folio::avx2
