// AVX2 packer of Q4_K, Q5_K and Q6_K weight chunks for the AVX2 K-quant GEMM (the layout of
// kernels/gemm_kquant.h, the same bytes as the scalar gemm_pack_kquant_weights; tested): the
// AVX-512 packer's steps (gemm_kquant_pack_avx512.cpp) at 256 bits, the nibble and high-bit
// unpacking of a group of 4 sub-blocks in a few vector operations and the (sub-block, step) ->
// (step, sub-block) transpose of its 4-byte lanes in unpacks. In MoE prefill each expert's weights
// are packed for only the tokens routed to it, so the packing has to be cheap next to the GEMM.
//
// Compiled with -mavx2 -mfma -mf16c (engine/CMakeLists.txt), entered only when
// gemm_kquant_available() on a CPU without the AVX-512 VNNI path. No inline functions with
// external linkage from shared headers (see gemm_q8_0_avx512.cpp); quant_blocks.h's static inline
// helpers and avx2_intrinsics.h's internal-linkage ones are safe.
#include "kernels/avx2_intrinsics.h"
#include "kernels/gemm_kquant.h"
#include "kernels/gemm_kquant_pack_steps.h"
#include "tensor/quant_blocks.h"
#include "tensor/quant_blocks_more.h"

namespace folio::avx2 {

namespace {

inline void store128(uint8_t* dst, __m128i v) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst), v);
}

// L = 32: sub-blocks s0 .. s3 of a group (32 bytes each, in element order) -> its 8 steps at dst
// (row lane offset applied; steps 64 bytes apart): step q = dword q of s0, s1, s2, s3.
inline void store_group32(uint8_t* dst, __m256i s0, __m256i s1, __m256i s2, __m256i s3) {
    const __m256i t0 = _mm256_unpacklo_epi32(s0, s1), t1 = _mm256_unpackhi_epi32(s0, s1);
    const __m256i t2 = _mm256_unpacklo_epi32(s2, s3), t3 = _mm256_unpackhi_epi32(s2, s3);
    const __m256i u[4] = {_mm256_unpacklo_epi64(t0, t2), _mm256_unpackhi_epi64(t0, t2),
                          _mm256_unpacklo_epi64(t1, t3), _mm256_unpackhi_epi64(t1, t3)};
    for (int q = 0; q < 4; ++q) { // u[q] = step q | step q + 4
        store128(dst + 64 * q, _mm256_castsi256_si128(u[q]));
        store128(dst + 64 * (q + 4), _mm256_extracti128_si256(u[q], 1));
    }
}

// L = 16: sub-blocks 4g, 4g+1 in a, 4g+2, 4g+3 in b (16 bytes each) -> the group's 4 steps.
inline void store_group16(uint8_t* dst, __m256i a, __m256i b) {
    const __m128i x0 = _mm256_castsi256_si128(a), x1 = _mm256_extracti128_si256(a, 1);
    const __m128i x2 = _mm256_castsi256_si128(b), x3 = _mm256_extracti128_si256(b, 1);
    const __m128i t0 = _mm_unpacklo_epi32(x0, x1), t1 = _mm_unpackhi_epi32(x0, x1);
    const __m128i t2 = _mm_unpacklo_epi32(x2, x3), t3 = _mm_unpackhi_epi32(x2, x3);
    store128(dst, _mm_unpacklo_epi64(t0, t2));
    store128(dst + 64, _mm_unpackhi_epi64(t0, t2));
    store128(dst + 128, _mm_unpacklo_epi64(t1, t3));
    store128(dst + 192, _mm_unpackhi_epi64(t1, t3));
}

// Q4_K (five_bits false) or Q5_K super-block of row lane r -> its bytes and scales in the quad's
// super-block at dst. Sub-blocks 4g, 4g+1 are the low / high nibbles of qs[64g .. 64g+31],
// 4g+2, 4g+3 those of qs[64g+32 .. 64g+63]; Q5_K adds bit j of qh[l] as 16.
void pack_q4_q5_k(const uint8_t* block, bool five_bits, int r, uint8_t* dst) {
    const auto [qs, scales, qh, d, dmin] = kquant_pack::q4_q5_fields(block, five_bits);
    const __m256i m4 = _mm256_set1_epi8(0x0F), one = _mm256_set1_epi8(1);
    const __m256i h = qh ? load256(qh) : _mm256_setzero_si256();
    // Bit j of each qh byte as 16 (zero for Q4_K).
    auto high = [&](int j) {
        return _mm256_slli_epi16(_mm256_and_si256(shift_right16(h, j), one), 4);
    };
    for (int g = 0; g < 2; ++g) {
        const __m256i qa = load256(qs + 64 * g), qb = load256(qs + 64 * g + 32);
        __m256i s[4] = {_mm256_and_si256(qa, m4), _mm256_and_si256(_mm256_srli_epi16(qa, 4), m4),
                        _mm256_and_si256(qb, m4), _mm256_and_si256(_mm256_srli_epi16(qb, 4), m4)};
        if (qh)
            for (int i = 0; i < 4; ++i)
                s[i] = _mm256_or_si256(s[i], high(4 * g + i));
        store_group32(dst + 512 * g + 16 * r, s[0], s[1], s[2], s[3]);
    }
    kquant_pack::scales_q4_q5(scales, h2f(d), h2f(dmin), r, dst);
}

// Q6_K super-block (block_q6_K) of row lane r: group g = elements 64g .. 64g+63 = half h = g/2,
// quarter pair p = 2(g%2), 2(g%2)+1: low 4 bits = ql[64h .. 64h+63] (low nibbles for even g, high
// for odd), high 2 bits = bits 2p of qh[32h + l] for the first 32, 2p + 2 for the next 32.
void pack_q6_k(const uint8_t* block, int r, uint8_t* dst) {
    const auto* b = reinterpret_cast<const BlockQ6K*>(block);
    const __m256i m4 = _mm256_set1_epi8(0x0F), m3 = _mm256_set1_epi8(3);
    for (int g = 0; g < 4; ++g) {
        const int h = g / 2, p = 2 * (g % 2);
        __m256i la = load256(b->ql + 64 * h), lb = load256(b->ql + 64 * h + 32);
        if (g % 2) {
            la = _mm256_srli_epi16(la, 4);
            lb = _mm256_srli_epi16(lb, 4);
        }
        const __m256i qh = load256(b->qh + 32 * h);
        const __m256i ha = _mm256_and_si256(shift_right16(qh, 2 * p), m3);
        const __m256i hb = _mm256_and_si256(shift_right16(qh, 2 * p + 2), m3);
        store_group16(dst + 256 * g + 16 * r,
                      _mm256_or_si256(_mm256_and_si256(la, m4), _mm256_slli_epi16(ha, 4)),
                      _mm256_or_si256(_mm256_and_si256(lb, m4), _mm256_slli_epi16(hb, 4)));
    }
    kquant_pack::scales_q6(b->scales, h2f(b->d), r, dst);
}

} // namespace

void gemm_pack_kquant_weights(DType type, const uint8_t* const rows[kGemmRows], int64_t k,
                              uint8_t* dst) {
    kquant_pack::pack_rows(type, rows, k, dst, [type](const uint8_t* block, int r, uint8_t* sb) {
        if (type == DType::Q6_K)
            pack_q6_k(block, r, sb);
        else
            pack_q4_q5_k(block, type == DType::Q5_K, r, sb);
    });
}

} // namespace folio::avx2
