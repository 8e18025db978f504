// AVX-512 packer of K-quant weight chunks (the layout of kernels/gemm_kquant.h, the same bytes as
// the scalar gemm_pack_kquant_weights; tested): the nibble and high-bit unpacking of a whole group
// of 4 sub-blocks in a few vector operations and the (sub-block, step) -> (step, sub-block)
// transpose of its 4-byte lanes in one or two permutes, instead of byte loops. In MoE prefill each
// expert's weights are packed for only the ~T·k/E tokens routed to it, so the packing has to be
// cheap next to the GEMM.
//
// Compiled with AVX-512 F/VL/BW/VNNI (engine/CMakeLists.txt), entered only when
// gemm_kquant_available(). No inline functions with external linkage from shared headers (see
// gemm_q8_0_avx512.cpp); quant_blocks.h's static inline helpers and avx2_intrinsics.h's
// internal-linkage ones are safe.
#include "kernels/gemm_kquant.h"
#include "kernels/gemm_kquant_pack_steps.h"

#include "tensor/quant_blocks.h"
#include "tensor/quant_blocks_more.h"

#include "kernels/avx512_intrinsics.h"

#include "kernels/avx2_intrinsics.h"

namespace folio::avx512 {

namespace {

using avx2::h2f;

// Stores the 4 × 16 bytes of v at dst, dst + 64, dst + 128, dst + 192 (steps q of one row lane
// block).
inline void store_steps4(uint8_t* dst, __m512i v) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst), _mm512_castsi512_si128(v));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + 64), _mm512_extracti32x4_epi32(v, 1));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + 128), _mm512_extracti32x4_epi32(v, 2));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + 192), _mm512_extracti32x4_epi32(v, 3));
}

// L = 32: a = sub-blocks 4g, 4g+1 and b = 4g+2, 4g+3 (32 bytes each, in element order) -> the 8
// steps of 4 lanes at dst (row offset already applied): step q, lane i = dword q of sub-block i.
inline void store_group32(uint8_t* dst, __m512i a, __m512i b) {
    // Output dword 4q' + i: sub-block i's dword q (q = q' for the first 4 steps, q' + 4 after);
    // sub-blocks 0, 1 are dwords 0..7, 8..15 of a, sub-blocks 2, 3 the same of b (index + 16).
    const __m512i lo = _mm512_setr_epi32(0, 8, 16, 24, 1, 9, 17, 25, 2, 10, 18, 26, 3, 11, 19, 27);
    const __m512i hi = _mm512_add_epi32(lo, _mm512_set1_epi32(4));
    store_steps4(dst, _mm512_permutex2var_epi32(a, lo, b));
    store_steps4(dst + 256, _mm512_permutex2var_epi32(a, hi, b));
}

// L = 16: v = sub-blocks 4g .. 4g+3 (16 bytes each, in element order) -> 4 steps at dst.
inline void store_group16(uint8_t* dst, __m512i v) {
    const __m512i t = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
    store_steps4(dst, _mm512_permutexvar_epi32(t, v));
}

// Q4_K (five_bits false) or Q5_K super-block of row lane r -> its bytes and scales in the quad's
// super-block at dst. Sub-blocks 4g, 4g+1 are the low / high nibbles of qs[64g .. 64g+31],
// 4g+2, 4g+3 those of qs[64g+32 .. 64g+63]; Q5_K adds bit j of qh[l] as 16.
void pack_q4_q5_k(const uint8_t* block, bool five_bits, int r, uint8_t* dst) {
    const auto [qs, scales, qh, d, dmin] = kquant_pack::q4_q5_fields(block, five_bits);
    const __m512i m4 = _mm512_set1_epi8(0x0F), one = _mm512_set1_epi8(1);
    __m512i h2 = _mm512_setzero_si512();
    if (qh)
        h2 = _mm512_broadcast_i64x4(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(qh)));
    for (int g = 0; g < 2; ++g) {
        const __m512i q = _mm512_loadu_si512(qs + 64 * g);
        __m512i lo = _mm512_and_si512(q, m4);
        __m512i hi = _mm512_and_si512(_mm512_srli_epi16(q, 4), m4);
        // a = (lo[0..31], hi[0..31]) = sub-blocks 4g, 4g+1; b = (lo[32..63], hi[32..63]).
        __m512i a = _mm512_shuffle_i64x2(lo, hi, 0x44);
        __m512i b = _mm512_shuffle_i64x2(lo, hi, 0xEE);
        if (qh) {
            // Bit j of qh[l] for sub-block j = 4g + i: lanes 0..31 of a take bit 4g, 32..63 bit
            // 4g+1; b bits 4g+2, 4g+3.
            const __m512i sa = int16_halves(4 * g, 4 * g + 1);
            const __m512i sb = int16_halves(4 * g + 2, 4 * g + 3);
            a = _mm512_or_si512(
                a, _mm512_slli_epi16(_mm512_and_si512(_mm512_srlv_epi16(h2, sa), one), 4));
            b = _mm512_or_si512(
                b, _mm512_slli_epi16(_mm512_and_si512(_mm512_srlv_epi16(h2, sb), one), 4));
        }
        store_group32(dst + 512 * g + 16 * r, a, b);
    }
    kquant_pack::scales_q4_q5(scales, h2f(d), h2f(dmin), r, dst);
}

// Q6_K super-block (block_q6_K) of row lane r: group g = elements 64g .. 64g+63 = half h = g/2,
// quarter pair p = 2(g%2), 2(g%2)+1: low 4 bits = ql[64h .. 64h+63] (low nibbles for even g, high
// for odd), high 2 bits = bits 2p of qh[32h + l] for the first 32, 2p + 2 for the next 32.
void pack_q6_k(const uint8_t* block, int r, uint8_t* dst) {
    const auto* b = reinterpret_cast<const BlockQ6K*>(block);
    const __m512i m4 = _mm512_set1_epi8(0x0F), m3 = _mm512_set1_epi8(3);
    for (int g = 0; g < 4; ++g) {
        const int h = g / 2, p = 2 * (g % 2);
        const __m512i ql = _mm512_loadu_si512(b->ql + 64 * h);
        const __m512i low = _mm512_and_si512(g % 2 ? _mm512_srli_epi16(ql, 4) : ql, m4);
        const __m512i qh = _mm512_broadcast_i64x4(
            _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b->qh + 32 * h)));
        const __m512i shift = int16_halves(2 * p, 2 * p + 2);
        const __m512i high = _mm512_and_si512(_mm512_srlv_epi16(qh, shift), m3);
        store_group16(dst + 256 * g + 16 * r, _mm512_or_si512(low, _mm512_slli_epi16(high, 4)));
    }
    kquant_pack::scales_q6(b->scales, h2f(b->d), r, dst);
}

// block_iq4_xs super-block of row lane r: group g = sub-blocks 4g .. 4g+3 = qs[64g .. 64g+63],
// 16 bytes each; sub-block i's elements are the low then the high nibbles of its 16 bytes, each
// mapped to kvalues_iq4nl + 128. Scales d·(ls_j − 32); the dmn area is zero (no min term).
void pack_iq4_xs(const uint8_t* block, int r, uint8_t* dst) {
    const auto* b = reinterpret_cast<const BlockIQ4XS*>(block);
    alignas(16) uint8_t levels[16];
    for (int i = 0; i < 16; ++i)
        levels[i] = static_cast<uint8_t>(kIq4nlValues[i] + 128);
    const __m512i table =
        _mm512_broadcast_i32x4(_mm_load_si128(reinterpret_cast<const __m128i*>(levels)));
    const __m512i m4 = _mm512_set1_epi8(0x0F);
    // a = (lo0, hi0, lo1, hi1), b = (lo2, hi2, lo3, hi3) in 16-byte lanes (qword indices; lo's
    // qwords are 0..7, hi's 8..15).
    const __m512i ia = _mm512_setr_epi64(0, 1, 8, 9, 2, 3, 10, 11);
    const __m512i ib = _mm512_setr_epi64(4, 5, 12, 13, 6, 7, 14, 15);
    for (int g = 0; g < 2; ++g) {
        const __m512i q = _mm512_loadu_si512(b->qs + 64 * g);
        const __m512i lo = _mm512_shuffle_epi8(table, _mm512_and_si512(q, m4));
        const __m512i hi =
            _mm512_shuffle_epi8(table, _mm512_and_si512(_mm512_srli_epi16(q, 4), m4));
        store_group32(dst + 512 * g + 16 * r, _mm512_permutex2var_epi64(lo, ia, hi),
                      _mm512_permutex2var_epi64(lo, ib, hi));
    }
    auto* dsc = reinterpret_cast<float*>(dst + 1024);
    auto* dmn = dsc + 32;
    const float d = h2f(b->d);
    for (int j = 0; j < 8; ++j) {
        const int ls =
            ((b->scales_l[j / 2] >> (4 * (j % 2))) & 0xF) | (((b->scales_h >> (2 * j)) & 3) << 4);
        dsc[16 * (j / 4) + 4 * r + j % 4] = d * static_cast<float>(ls - 32);
        dmn[16 * (j / 4) + 4 * r + j % 4] = 0.0f;
    }
}

} // namespace

void gemm_pack_kquant_weights(DType type, const uint8_t* const rows[kGemmRows], int64_t k,
                              uint8_t* dst) {
    kquant_pack::pack_rows(type, rows, k, dst, [type](const uint8_t* block, int r, uint8_t* sb) {
        if (type == DType::Q6_K)
            pack_q6_k(block, r, sb);
        else if (type == DType::IQ4_XS)
            pack_iq4_xs(block, r, sb);
        else
            pack_q4_q5_k(block, type == DType::Q5_K, r, sb);
    });
}

} // namespace folio::avx512
