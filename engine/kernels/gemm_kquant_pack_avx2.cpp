// AVX2 packer of Q2_K .. Q6_K and IQ4_XS weight chunks for the AVX2 K-quant GEMM (the layout of
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

// block_iq4_xs super-block of row lane r: group g = sub-blocks 4g .. 4g+3 = qs[64g .. 64g+63],
// 16 bytes each, whose elements are the low then the high nibbles, each mapped to its level
// + 128 by a byte shuffle. Scales d·(ls_j − 32); the dmn area zero.
void pack_iq4_xs(const uint8_t* block, int r, uint8_t* dst) {
    const auto* b = reinterpret_cast<const BlockIQ4XS*>(block);
    alignas(16) uint8_t levels[16];
    for (int i = 0; i < 16; ++i)
        levels[i] = static_cast<uint8_t>(kIq4nlValues[i] + 128);
    const __m256i table =
        _mm256_broadcastsi128_si256(_mm_load_si128(reinterpret_cast<const __m128i*>(levels)));
    const __m256i m4 = _mm256_set1_epi8(0x0F);
    for (int g = 0; g < 2; ++g) {
        // Lanes of a: sub-blocks 4g, 4g+1; of c: 4g+2, 4g+3.
        const __m256i a = load256(b->qs + 64 * g), c = load256(b->qs + 64 * g + 32);
        const __m256i alo = _mm256_shuffle_epi8(table, _mm256_and_si256(a, m4));
        const __m256i ahi =
            _mm256_shuffle_epi8(table, _mm256_and_si256(_mm256_srli_epi16(a, 4), m4));
        const __m256i clo = _mm256_shuffle_epi8(table, _mm256_and_si256(c, m4));
        const __m256i chi =
            _mm256_shuffle_epi8(table, _mm256_and_si256(_mm256_srli_epi16(c, 4), m4));
        store_group32(dst + 512 * g + 16 * r, _mm256_permute2x128_si256(alo, ahi, 0x20),
                      _mm256_permute2x128_si256(alo, ahi, 0x31),
                      _mm256_permute2x128_si256(clo, chi, 0x20),
                      _mm256_permute2x128_si256(clo, chi, 0x31));
    }
    auto* dsc = reinterpret_cast<float*>(dst + 1024);
    auto* dmn = dsc + 32;
    const float d = h2f(b->d);
    for (int j = 0; j < 8; ++j) {
        dsc[16 * (j / 4) + 4 * r + j % 4] = d * static_cast<float>(iq4xs_scale(*b, j) - 32);
        dmn[16 * (j / 4) + 4 * r + j % 4] = 0.0f;
    }
}

// block_q3_K (hmask set: q3 true) or block_q2_K super-block of row lane r. Group g = sub-blocks
// 4g .. 4g+3 = half n = g / 2, bit pairs j = 2(g % 2) and j + 1: the 2 bits of element 16h + l of
// sub-block pair (j, h) are bits 2j of qs[32n + 16h + l], so one shift of qs[32n .. 32n+31] gives
// sub-blocks 4g, 4g+1 (j) or 4g+2, 4g+3 (j + 1) in its two lanes; Q3_K adds bit 4n + j of
// hmask[16h + l] as 4.
void pack_q2_q3_k(const uint8_t* qs, const uint8_t* hmask, int r, uint8_t* dst) {
    const __m256i m3 = _mm256_set1_epi8(3), one = _mm256_set1_epi8(1);
    const __m256i hm = hmask ? load256(hmask) : _mm256_setzero_si256();
    for (int g = 0; g < 4; ++g) {
        const int n = g / 2, j = 2 * (g % 2);
        const __m256i q = load256(qs + 32 * n);
        __m256i a = _mm256_and_si256(shift_right16(q, 2 * j), m3);
        __m256i b = _mm256_and_si256(shift_right16(q, 2 * j + 2), m3);
        if (hmask) {
            a = _mm256_or_si256(
                a, _mm256_slli_epi16(_mm256_and_si256(shift_right16(hm, 4 * n + j), one), 2));
            b = _mm256_or_si256(
                b, _mm256_slli_epi16(_mm256_and_si256(shift_right16(hm, 4 * n + j + 1), one), 2));
        }
        store_group16(dst + 256 * g + 16 * r, a, b);
    }
}

void pack_q3_k(const uint8_t* block, int r, uint8_t* dst) {
    const auto* b = reinterpret_cast<const BlockQ3K*>(block);
    pack_q2_q3_k(b->qs, b->hmask, r, dst);
    int8_t sc[16];
    q3k_scales(b->scales, sc);
    auto* dsc = reinterpret_cast<float*>(dst + 1024);
    const float d = h2f(b->d);
    for (int j = 0; j < 16; ++j)
        dsc[16 * (j / 4) + 4 * r + j % 4] = d * static_cast<float>(sc[j]);
}

void pack_q2_k(const uint8_t* block, int r, uint8_t* dst) {
    const auto* b = reinterpret_cast<const BlockQ2K*>(block);
    pack_q2_q3_k(b->qs, nullptr, r, dst);
    auto* dsc = reinterpret_cast<float*>(dst + 1024);
    auto* dmn = dsc + 64;
    const float d = h2f(b->d), dmin = h2f(b->dmin);
    for (int j = 0; j < 16; ++j) {
        dsc[16 * (j / 4) + 4 * r + j % 4] = d * static_cast<float>(b->scales[j] & 0xF);
        dmn[16 * (j / 4) + 4 * r + j % 4] = dmin * static_cast<float>(b->scales[j] >> 4);
    }
}

} // namespace

void gemm_pack_kquant_weights(DType type, const uint8_t* const rows[kGemmRows], int64_t k,
                              uint8_t* dst) {
    kquant_pack::pack_rows(type, rows, k, dst, [type](const uint8_t* block, int r, uint8_t* sb) {
        switch (type) {
        case DType::Q6_K:
            pack_q6_k(block, r, sb);
            break;
        case DType::IQ4_XS:
            pack_iq4_xs(block, r, sb);
            break;
        case DType::Q3_K:
            pack_q3_k(block, r, sb);
            break;
        case DType::Q2_K:
            pack_q2_k(block, r, sb);
            break;
        default:
            pack_q4_q5_k(block, type == DType::Q5_K, r, sb);
        }
    });
}

} // namespace folio::avx2
