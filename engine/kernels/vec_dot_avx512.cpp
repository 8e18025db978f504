// AVX-512 dot products of the decode path (kernels/vec_dot_avx512.h).
//
// Q4_K × Q8_K: the AVX2 kernel (vec_dot_avx2.cpp dot_q4_k_n) takes a super-block's 128 bytes of
// nibbles 32 at a time: per 32 bytes two nibble masks, two scale shuffles and, per activation
// row, maddubs + madd twice. Decode (one activation row) is bound by that instruction count, not
// by memory (bench-kernels: Q4_K matvec at ~0.7 of the read bandwidth where Q8_0 reaches 0.93).
// Here one 512-bit step takes chunks c and c+1 at once: its low 256 bits are chunk c, its high
// 256 bits chunk c+1, the activations are rearranged to match (one 128-bit lane shuffle), and
// each half gets its own sub-block scale. The int32 lane sums of the two halves are added at the
// end of the super-block: lane l then holds exactly the AVX2 kernel's lane l (integer sums, no
// rounding), and the float steps are the AVX2 kernel's, so the results are equal bit for bit.
//
// Compiled with -mavx512f -mavx512vl -mavx512bw -mavx512vnni (engine/CMakeLists.txt), entered only
// after the run-time CPU check. No inline functions from shared headers (see gemm_q8_0_avx512.cpp).
#include "kernels/vec_dot_avx512.h"

#include "tensor/quant_blocks.h"

#include "kernels/avx512_intrinsics.h"

namespace folio::avx512 {

namespace {

inline float hsum(__m256 v) { // the AVX2 kernel's reduction order
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    s = _mm_add_ss(s, _mm_movehdup_ps(s));
    return _mm_cvtss_f32(s);
}

// q4k_scales_mins (§2.6 get_scale_min_k4 for the 8 sub-blocks: bytes 0..7 = scales, 8..15 =
// mins) in registers: the scalar version goes through memory (four 32-bit stores read back as
// one 16-byte load, which store forwarding cannot serve). `scales` is followed by the block's
// nibbles, so the 16-byte load stays inside the block.
inline __m128i q4k_scales_mins_v(const uint8_t* scales) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(scales)); // u0 u1 u2 .
    // Low bits: u0 & 0x3F.., u2 & 0x0F.., u1 & 0x3F.., (u2 >> 4) & 0x0F..
    const __m128i base =
        _mm_srlv_epi32(_mm_shuffle_epi32(v, _MM_SHUFFLE(2, 1, 2, 0)), _mm_setr_epi32(0, 0, 0, 4));
    const __m128i low =
        _mm_and_si128(base, _mm_setr_epi32(0x3F3F3F3F, 0x0F0F0F0F, 0x3F3F3F3F, 0x0F0F0F0F));
    // High bits of words 1 and 3: ((u0 >> 6) & 3) << 4 and ((u1 >> 6) & 3) << 4.
    const __m128i high =
        _mm_and_si128(_mm_srli_epi32(_mm_shuffle_epi32(v, _MM_SHUFFLE(1, 1, 0, 0)), 2),
                      _mm_setr_epi32(0, 0x30303030, 0, 0x30303030));
    return _mm_or_si128(low, high);
}

template <int NX>
void dot_q4_k_n(int64_t nb, const BlockQ4K* w, const void* x, size_t xs, float* out, int64_t os) {
    const BlockQ8K* xr[NX];
    __m256 acc[NX];
    for (int j = 0; j < NX; ++j) {
        xr[j] = reinterpret_cast<const BlockQ8K*>(static_cast<const uint8_t*>(x) + j * xs);
        acc[j] = _mm256_setzero_ps();
    }
    const __m512i m4 = _mm512_set1_epi8(0x0F);
    // int16 scale indices of the four (nibble half, chunk pair) steps: sub-block 2c (+1 for the
    // high nibbles) in the low 256 bits, 2c + 2 (+1) in the high 256 bits.
    auto index = [](int lo, int hi) {
        return _mm512_inserti64x4(_mm512_set1_epi16(static_cast<short>(lo)),
                                  _mm256_set1_epi16(static_cast<short>(hi)), 1);
    };
    const __m512i idx_lo[2] = {index(0, 2), index(4, 6)};
    const __m512i idx_hi[2] = {index(1, 3), index(5, 7)};
    for (int64_t b = 0; b < nb; ++b) {
        const BlockQ4K& wb = w[b];
        const __m128i sm = q4k_scales_mins_v(wb.scales);
        const __m512i sc16 = _mm512_castsi256_si512(_mm256_cvtepu8_epi16(sm)); // 8 scales
        const __m256i mins16 = _mm256_cvtepu8_epi16(_mm_unpackhi_epi8(sm, sm));

        __m512i isum[NX];
        for (int j = 0; j < NX; ++j)
            isum[j] = _mm512_setzero_si512();
        for (int pair = 0; pair < 2; ++pair) {
            const __m512i q = _mm512_loadu_si512(wb.qs + 64 * pair); // chunks 2·pair, 2·pair+1
            const __m512i lo = _mm512_and_si512(q, m4);
            const __m512i hi = _mm512_and_si512(_mm512_srli_epi16(q, 4), m4);
            const __m512i s_lo = _mm512_permutexvar_epi16(idx_lo[pair], sc16);
            const __m512i s_hi = _mm512_permutexvar_epi16(idx_hi[pair], sc16);
            for (int j = 0; j < NX; ++j) {
                // 128 activations: [lo c | hi c | lo c+1 | hi c+1], 32 bytes each.
                const int8_t* xq = xr[j][b].qs + 128 * pair;
                const __m512i a = _mm512_loadu_si512(xq), bb = _mm512_loadu_si512(xq + 64);
                const __m512i x_lo = _mm512_shuffle_i64x2(a, bb, 0x44); // lo c | lo c+1
                const __m512i x_hi = _mm512_shuffle_i64x2(a, bb, 0xEE); // hi c | hi c+1
                // vpdpwssd: the AVX2 kernel's madd by the scales and its add in one step.
                isum[j] = _mm512_dpwssd_epi32(isum[j], _mm512_maddubs_epi16(lo, x_lo), s_lo);
                isum[j] = _mm512_dpwssd_epi32(isum[j], _mm512_maddubs_epi16(hi, x_hi), s_hi);
            }
        }
        const float dw = _cvtsh_ss(wb.d), dminw = _cvtsh_ss(wb.dmin);
        for (int j = 0; j < NX; ++j) {
            const __m256i s = _mm256_add_epi32(_mm512_castsi512_si256(isum[j]),
                                               _mm512_extracti64x4_epi64(isum[j], 1));
            const __m256i msum = _mm256_madd_epi16(
                mins16, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(xr[j][b].bsums)));
            const float dx = xr[j][b].d;
            acc[j] = _mm256_fmadd_ps(_mm256_set1_ps(dx * dw), _mm256_cvtepi32_ps(s), acc[j]);
            acc[j] = _mm256_fnmadd_ps(_mm256_set1_ps(dx * dminw), _mm256_cvtepi32_ps(msum), acc[j]);
        }
    }
    for (int j = 0; j < NX; ++j)
        out[j * os] = hsum(acc[j]);
}

} // namespace

void dot_q4_k(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    const int64_t nb = k / kQKK;
    const auto* wb = static_cast<const BlockQ4K*>(w);
    switch (nx) {
    case 1:
        return dot_q4_k_n<1>(nb, wb, x, xs, out, os);
    case 2:
        return dot_q4_k_n<2>(nb, wb, x, xs, out, os);
    case 3:
        return dot_q4_k_n<3>(nb, wb, x, xs, out, os);
    default:
        return dot_q4_k_n<4>(nb, wb, x, xs, out, os);
    }
}

} // namespace folio::avx512
