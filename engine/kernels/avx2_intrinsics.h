#pragma once
// Small AVX2 helpers shared by the *_avx2.cpp files (and by *_avx512.cpp files that keep an AVX2
// kernel's bits). Include this only from translation units compiled with AVX2+FMA+F16C (the
// *_avx2.cpp / *_avx512.cpp name patterns of engine/CMakeLists.txt).
//
// Everything here has internal linkage (an unnamed namespace): an inline function with external
// linkage compiled with these instruction sets could be merged by the linker with a copy from
// generic code and then run on a CPU without them.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

namespace folio::avx2 {

namespace {

// Σ of the 8 lanes: the two 128-bit halves added, then lanes (0 + 2, 1 + 3), then those two.
// Every AVX2 kernel reduces in this order; results depend on it bit for bit.
inline float hsum(__m256 v) {
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    s = _mm_add_ss(s, _mm_movehdup_ps(s));
    return _mm_cvtss_f32(s);
}

// Maximum of the 8 lanes, in hsum's order (a NaN operand yields the second operand, as maxps).
inline float hmax(__m256 v) {
    __m128 m = _mm_max_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    m = _mm_max_ps(m, _mm_movehl_ps(m, m));
    m = _mm_max_ss(m, _mm_movehdup_ps(m));
    return _mm_cvtss_f32(m);
}

// Exact int32 sum of the 8 lanes.
inline int hsum_i32(__m256i p) {
    __m128i s = _mm_add_epi32(_mm256_castsi256_si128(p), _mm256_extracti128_si256(p, 1));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4E));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xB1));
    return _mm_cvtsi128_si32(s);
}

// fp16 -> fp32 (F16C).
inline float h2f(uint16_t h) {
    return _cvtsh_ss(h);
}

inline __m256i load256(const void* p) {
    return _mm256_loadu_si256(static_cast<const __m256i*>(p));
}

// Mask with the first n (0..8) 32-bit lanes set.
inline __m256i tail_mask(int64_t n) {
    const __m256i idx = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(n)), idx);
}

// 32 unsigned bytes × 32 signed bytes -> 8 int32 sums of 4 products each.
inline __m256i dot_u8_i8(__m256i a, __m256i b) {
    return _mm256_madd_epi16(_mm256_maddubs_epi16(a, b), _mm256_set1_epi16(1));
}

// 16 bytes of packed nibbles -> 32 bytes: low nibbles (elements 0..15) then high (16..31).
inline __m256i unpack_nibbles(const uint8_t* qs) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(qs));
    const __m128i m4 = _mm_set1_epi8(0x0F);
    const __m128i lo = _mm_and_si128(v, m4);
    const __m128i hi = _mm_and_si128(_mm_srli_epi16(v, 4), m4);
    return _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
}

// Every 16-bit lane shifted right by n (a run-time count).
inline __m256i shift_right16(__m256i v, int n) {
    return _mm256_srl_epi16(v, _mm_cvtsi32_si128(n));
}

// Q3_K's 16 signed 6-bit scales (tensor/quant_blocks_more.h q3k_scales) in registers: the scalar
// version built 16 bytes one at a time and stored them for a 16-byte load, which store
// forwarding cannot serve. Low 4 bits: bytes 0..7 & 0xF, then bytes 0..7 >> 4; high 2 bits:
// byte 8 + s % 4 shifted right by 2·(s / 4), one 32-bit lane per s / 4.
inline __m128i q3k_scales_v(const uint8_t* scales) {
    const __m128i a = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(scales));
    const __m128i lo =
        _mm_and_si128(_mm_unpacklo_epi64(a, _mm_srli_epi16(a, 4)), _mm_set1_epi8(0x0F));
    uint32_t h;
    __builtin_memcpy(&h, scales + 8, 4);
    const __m128i hi = _mm_and_si128(
        _mm_srlv_epi32(_mm_set1_epi32(static_cast<int>(h)), _mm_setr_epi32(0, 2, 4, 6)),
        _mm_set1_epi8(3));
    return _mm_sub_epi8(_mm_or_si128(lo, _mm_slli_epi16(hi, 4)), _mm_set1_epi8(32));
}

// Activation row j of a batch whose rows are xs bytes apart.
template <typename Block> const Block* x_row(const void* x, size_t xs, int j) {
    return reinterpret_cast<const Block*>(static_cast<const uint8_t*>(x) + j * xs);
}

// The float step closing one super-block of the k-quants with d and dmin (Q2_K, Q4_K, Q5_K) for
// NX activation rows: acc[j] += dx·d·isum[j] − dx·dmin·(mins16 · bsums), mins16 the 16 mins as
// int16 lanes in the order of the Q8_K block's 16 bsums, in that order of operations (the bits
// the AVX-512 kernels reproduce).
template <int NX, typename XBlock>
inline void kquant_dmin_step(const XBlock* const* xr, int64_t b, uint16_t d, uint16_t dmin,
                             __m256i mins16, const __m256i* isum, __m256* acc) {
    const float dw = h2f(d), dminw = h2f(dmin);
    for (int j = 0; j < NX; ++j) {
        const __m256i msum = _mm256_madd_epi16(mins16, load256(xr[j][b].bsums));
        const float dx = xr[j][b].d;
        acc[j] = _mm256_fmadd_ps(_mm256_set1_ps(dx * dw), _mm256_cvtepi32_ps(isum[j]), acc[j]);
        acc[j] = _mm256_fnmadd_ps(_mm256_set1_ps(dx * dminw), _mm256_cvtepi32_ps(msum), acc[j]);
    }
}

} // namespace

} // namespace folio::avx2
