// AVX-512 VNNI dot products of the 4-bit blocks of 32 — MXFP4, Q4_0, IQ4_NL — against Q8_0
// activations (decode, vec_dot_avx512.h): one kernel over the block format (its value table and
// its scale field). Below it, the same scheme for Q5_0 (the fifth bits as byte masks) and for
// IQ4_XS's super-blocks against Q8_K.
//
// The AVX2 kernel (vec_dot_avx2.cpp dot_nibbles32 with DecodeMxfp4) spends ~90 instructions on
// 8 blocks: sign tricks around maddubs, int16 adds and madds, a horizontal add, and four scalar
// scale lookups per 4 blocks: too slow for two threads to keep up with the memory. A kernel equal
// to it bit for bit had to rebuild its 8-lane half-block sums and gained too little
// (docs/NUMERICS.md). This one keeps its own order of float
// sums, checked against the reference within float rounding (test_kernels):
// - 4 blocks per 512-bit register, [b | b+2 | b+1 | b+3] (four 16-byte loads); low and high
//   nibbles meet the two 64-byte halves of the activation row's interleaved copy (kernel_table.h
//   Q8_0ActLayout) as they are, so both land in the same int32 lanes: lanes 0-3 hold block b,
//   4-7 b+2, 8-11 b+1, 12-15 b+3.
// - vpdpbusd needs unsigned weights: the table gives value + offset (MXFP4: twice the E2M1 value
//   is -12..12, OCP MX v1.0 / ggml-common.h kvalues_mxfp4, offset 12; Q4_0 8; IQ4_NL 127) and
//   offset·Σx comes off (a vpdpbusd of the activations with the offset).
// - the block scales (2^(e-128) from MXFP4's exponent bytes, or the fp16 d) are built in
//   registers 8 at a time (one word permute picks their fields), multiplied by the activation
//   scales, spread to their 4 lanes, and one FMA per 4 blocks adds the products.
//
// Compiled with AVX-512 F/VL/BW/VNNI (engine/CMakeLists.txt), entered only after the run-time CPU
// check. No inline functions with external linkage from shared headers (see gemm_q8_0_avx512.cpp);
// quant_blocks.h's static inline helpers, kernel_table.h's static constexpr layout and
// nx_dispatch.h's internal-linkage templates are safe.
#include "kernels/vec_dot_avx512.h"

#include "kernels/decode_prefetch.h"
#include "kernels/kernel_table.h"
#include "kernels/nx_dispatch.h"

#include "tensor/quant_blocks.h"
#include "tensor/quant_blocks_more.h"

#include "kernels/avx512_intrinsics.h"

#include <type_traits>

namespace folio::avx512 {

namespace {

// The three formats: a block's 16 nibble bytes qs, a 16-entry int8 value table (+ kOffset makes
// every value a u8 for vpdpbusd) and the block scale. scales8 gives 8 consecutive blocks' scales
// from their first 128 bytes: the 16-bit words holding the scale fields are picked with one
// two-register word permute (`words`, block i's field at byte i·sizeof(Block)).
// (A gather was slower, scalar loads through an array cost ~20 instructions.)
struct FormatMxfp4 {
    using Block = BlockMxfp4;
    static constexpr int kOffset = 12; // twice the E2M1 value: -12..12 (kvalues_mxfp4)
    static const int8_t* values() { return kMxfp4Values; }
    // Byte 17i is the low byte of word 17i/2 for even i, the high byte of word (17i-1)/2 for
    // odd i.
    static __m512i words() {
        return _mm512_castsi128_si512(_mm_setr_epi16(0, 8, 17, 25, 34, 42, 51, 59));
    }
    // 2^(e-128) (e8m0_to_fp32_half, bit for bit): fp32 bits (e - 1) << 23, or the two
    // subnormals 0x00200000 << e for e < 2.
    static __m256 scales8(__m512i w16) {
        const __m128i e16 = _mm_and_si128(
            _mm_srlv_epi16(_mm512_castsi512_si128(w16), _mm_setr_epi16(0, 8, 0, 8, 0, 8, 0, 8)),
            _mm_set1_epi16(0xFF));
        const __m256i e = _mm256_cvtepu16_epi32(e16);
        const __m256i normal = _mm256_slli_epi32(_mm256_sub_epi32(e, _mm256_set1_epi32(1)), 23);
        const __m256i sub = _mm256_sllv_epi32(_mm256_set1_epi32(0x00200000), e);
        const __mmask8 small = _mm256_cmplt_epi32_mask(e, _mm256_set1_epi32(2));
        return _mm256_castsi256_ps(_mm256_mask_mov_epi32(normal, small, sub));
    }
    static float scale(const Block& b) { return e8m0_to_fp32_half(b.e); }
};

// Q4_0 and IQ4_NL: an fp16 d (word 9i of 8 18-byte blocks) and 16 bytes of nibbles.
inline constexpr int8_t kQ4_0Values[16] = {-8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7};
template <typename B, const int8_t* kValues, int kOff> struct FormatFp16 {
    using Block = B;
    static constexpr int kOffset = kOff;
    static const int8_t* values() { return kValues; }
    static __m512i words() {
        return _mm512_castsi128_si512(_mm_setr_epi16(0, 9, 18, 27, 36, 45, 54, 63));
    }
    static __m256 scales8(__m512i w16) { return _mm256_cvtph_ps(_mm512_castsi512_si128(w16)); }
    static float scale(const Block& b) { return _cvtsh_ss(b.d); }
};
using FormatQ4_0 = FormatFp16<BlockQ4_0, kQ4_0Values, 8>;
using FormatIq4Nl = FormatFp16<BlockIQ4NL, kIq4nlValues, 127>; // values -127..113

template <typename Fmt> struct Consts {
    __m512i m4 = _mm512_set1_epi8(0x0F);
    __m512i offset = _mm512_set1_epi8(Fmt::kOffset);
    // The format's values + kOffset, by nibble (every 128-bit lane the same table for vpshufb).
    __m512i table = _mm512_add_epi8(
        _mm512_broadcast_i32x4(_mm_loadu_si128(reinterpret_cast<const __m128i*>(Fmt::values()))),
        offset);
    // The 4 scales of blocks (b, b+1, b+2, b+3) spread to lanes [b ×4 | b+2 ×4 | b+1 ×4 | b+3 ×4].
    __m512i spread_lo = _mm512_setr_epi32(0, 0, 0, 0, 2, 2, 2, 2, 1, 1, 1, 1, 3, 3, 3, 3);
    __m512i spread_hi = _mm512_setr_epi32(4, 4, 4, 4, 6, 6, 6, 6, 5, 5, 5, 5, 7, 7, 7, 7);
    __m512i words = Fmt::words();
};

inline __m128i load128(const uint8_t* p) {
    return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
}

// The 16 nibble bytes of blocks b, b+2, b+1, b+3 in that lane order.
template <typename Block> inline __m512i nibbles4(const Block* w) {
    __m512i q = _mm512_castsi128_si512(load128(w[0].qs));
    q = _mm512_inserti32x4(q, load128(w[2].qs), 1);
    q = _mm512_inserti32x4(q, load128(w[1].qs), 2);
    return _mm512_inserti32x4(q, load128(w[3].qs), 3);
}

// The scales of the 8 blocks at w.
template <typename Fmt>
inline __m256 block_scales8(const typename Fmt::Block* w, const Consts<Fmt>& c) {
    const auto* p = reinterpret_cast<const uint8_t*>(w);
    return Fmt::scales8(
        _mm512_permutex2var_epi16(_mm512_loadu_si512(p), c.words, _mm512_loadu_si512(p + 64)));
}

// The 4 blocks' weights + offset as unsigned bytes: low nibbles, high nibbles (nibbles4's order).
struct Unsigned4 {
    __m512i lo, hi;
};
template <typename Fmt> inline Unsigned4 unsigned4(__m512i q4, const Consts<Fmt>& c) {
    return {_mm512_shuffle_epi8(c.table, _mm512_and_si512(q4, c.m4)),
            _mm512_shuffle_epi8(c.table, _mm512_and_si512(_mm512_srli_epi16(q4, 4), c.m4))};
}

// acc += the 4 blocks u against activations xi (their interleaved copy, 128 bytes: low halves,
// then high halves, in u's block order) with per-lane scales d.
inline __m512 step4(const Unsigned4& u, const int8_t* xi, __m512 d, __m512 acc, __m512i offset) {
    const __m512i x_lo = _mm512_loadu_si512(xi), x_hi = _mm512_loadu_si512(xi + 64);
    const __m512i zero = _mm512_setzero_si512();
    const __m512i uw = _mm512_dpbusd_epi32(_mm512_dpbusd_epi32(zero, u.lo, x_lo), u.hi, x_hi);
    // kOffset·Σx per lane. (Kept in the activation row instead, its fill cost the
    // Q8_0-activation matmuls of every other weight type more than it saved here.)
    const __m512i off = _mm512_dpbusd_epi32(_mm512_dpbusd_epi32(zero, offset, x_lo), offset, x_hi);
    return _mm512_fmadd_ps(d, _mm512_cvtepi32_ps(_mm512_sub_epi32(uw, off)), acc);
}

// One block against one Q8_0 block (the rows' last nb % 4 blocks, which have no interleaved
// copy): exact int32 sum.
template <typename Fmt>
inline int32_t block_isum(const typename Fmt::Block& w, const BlockQ8_0& x, const Consts<Fmt>& c) {
    const __m128i q = load128(w.qs);
    const __m128i t = _mm512_castsi512_si128(c.table);
    const __m128i m4 = _mm_set1_epi8(0x0F);
    const __m256i u =
        _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_shuffle_epi8(t, _mm_and_si128(q, m4))),
                                _mm_shuffle_epi8(t, _mm_and_si128(_mm_srli_epi16(q, 4), m4)), 1);
    const __m256i xv = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x.qs));
    const __m256i zero = _mm256_setzero_si256();
    const __m256i lanes =
        _mm256_sub_epi32(_mm256_dpbusd_epi32(zero, u, xv),
                         _mm256_dpbusd_epi32(zero, _mm512_castsi512_si256(c.offset), xv));
    const __m128i s =
        _mm_add_epi32(_mm256_castsi256_si128(lanes), _mm256_extracti128_si256(lanes, 1));
    const __m128i s2 = _mm_add_epi32(s, _mm_unpackhi_epi64(s, s));
    return _mm_cvtsi128_si32(_mm_add_epi32(s2, _mm_srli_si128(s2, 4)));
}

// NX activation rows against one weight row; the constants and the activation layout come from
// the caller (once per call of the entry points below, not per row).
template <typename Fmt, int NX>
[[gnu::always_inline]] inline void dot_n(int64_t k, const typename Fmt::Block* w, const void* x,
                                         size_t xs, float* out, int64_t os, const Consts<Fmt>& c,
                                         const Q8_0ActLayout& l) {
    const int64_t nb = k / 32;
    const uint8_t* row[NX];
    __m512 acc[NX];
    for (int j = 0; j < NX; ++j) {
        row[j] = static_cast<const uint8_t*>(x) + j * xs;
        acc[j] = _mm512_setzero_ps();
    }
    int64_t b = 0;
    for (; b + 8 <= nb; b += 8) {
        prefetch_ahead<NX>(w + b, 3); // 136 or 144 bytes
        const __m256 dw = block_scales8(w + b, c);
        // Decoded once for all NX activation rows.
        const Unsigned4 q0 = unsigned4(nibbles4(w + b), c), q1 = unsigned4(nibbles4(w + b + 4), c);
        for (int j = 0; j < NX; ++j) {
            const __m256 d = _mm256_mul_ps(
                dw, _mm256_loadu_ps(reinterpret_cast<const float*>(row[j] + l.scales) + b));
            const __m512 d512 = _mm512_castps256_ps512(d);
            const int8_t* xi = reinterpret_cast<const int8_t*>(row[j] + l.interleaved) + 32 * b;
            acc[j] = step4(q0, xi, _mm512_permutexvar_ps(c.spread_lo, d512), acc[j], c.offset);
            acc[j] =
                step4(q1, xi + 128, _mm512_permutexvar_ps(c.spread_hi, d512), acc[j], c.offset);
        }
    }
    if (b + 4 <= nb) {
        const __m128 dw = _mm_setr_ps(Fmt::scale(w[b]), Fmt::scale(w[b + 1]), Fmt::scale(w[b + 2]),
                                      Fmt::scale(w[b + 3]));
        const Unsigned4 q = unsigned4(nibbles4(w + b), c);
        for (int j = 0; j < NX; ++j) {
            const __m128 d =
                _mm_mul_ps(dw, _mm_loadu_ps(reinterpret_cast<const float*>(row[j] + l.scales) + b));
            const int8_t* xi = reinterpret_cast<const int8_t*>(row[j] + l.interleaved) + 32 * b;
            acc[j] = step4(q, xi, _mm512_permutexvar_ps(c.spread_lo, _mm512_castps128_ps512(d)),
                           acc[j], c.offset);
        }
        b += 4;
    }
    float tail[NX] = {};
    for (; b < nb; ++b) {
        const float dw = Fmt::scale(w[b]);
        for (int j = 0; j < NX; ++j) {
            const auto* xb = reinterpret_cast<const BlockQ8_0*>(row[j]) + b;
            const float dx = reinterpret_cast<const float*>(row[j] + l.scales)[b];
            tail[j] += dw * dx * static_cast<float>(block_isum(w[b], *xb, c));
        }
    }
    for (int j = 0; j < NX; ++j)
        out[j * os] = _mm512_reduce_add_ps(acc[j]) + tail[j];
}

template <typename Fmt>
void dot(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    const auto* wb = static_cast<const typename Fmt::Block*>(w);
    const Consts<Fmt> c;
    const Q8_0ActLayout l = q8_0_act_layout(k);
    by_nx(nx, [&](auto n) { dot_n<Fmt, n()>(k, wb, x, xs, out, os, c, l); });
}

// nw weight rows (w_stride bytes apart) against one activation row, each row's steps and bits
// the one-row dot's. Decode's short rows (the MXFP4 experts' down projections: K = 512, 16
// blocks, on the bench shape) paid a call, the constants and the layout per row.
template <typename Fmt>
void dot_rows(int64_t k, const void* w, size_t w_stride, int nw, const void* x, float* out) {
    const Consts<Fmt> c;
    const Q8_0ActLayout l = q8_0_act_layout(k);
    for (int r = 0; r < nw; ++r)
        dot_n<Fmt, 1>(k,
                      reinterpret_cast<const typename Fmt::Block*>(static_cast<const uint8_t*>(w) +
                                                                   r * w_stride),
                      x, 0, out + r, 1, c, l);
}

// ---- Q5_0: the Q4_0 layout plus a fifth bit per value (32 qh bits per block) -----------------
// u = nibble | fifth << 4 (0..31), weight u - 16. The fifth bits of 4 blocks become two 64-bit
// byte masks (low nibbles' values 0-15 are qh bits 0-15, the high nibbles' 16-31), taken with the
// 4 fp16 scales by two word permutes of the blocks' first 72 bytes; 16 is added under the masks.
struct Q5_0Consts {
    __m512i m4 = _mm512_set1_epi8(0x0F);
    __m512i sixteen = _mm512_set1_epi8(16);
    // `words` 0-3: d of blocks b .. b+3 (word 11i); 4-7: qh bits 0-15 of blocks b, b+2, b+1, b+3
    // (word 11i + 1, nibbles4's order). `words_hi` 0-3: their qh bits 16-31 (word 11i + 2).
    __m512i words = _mm512_castsi128_si512(_mm_setr_epi16(0, 11, 22, 33, 1, 23, 12, 34));
    __m512i words_hi = _mm512_castsi128_si512(_mm_setr_epi16(2, 24, 13, 35, 0, 0, 0, 0));
    __m512i spread = _mm512_setr_epi32(0, 0, 0, 0, 2, 2, 2, 2, 1, 1, 1, 1, 3, 3, 3, 3);
};

struct Q5_0Group {
    Unsigned4 u;
    __m128 d; // the 4 blocks' scales, in block order
};

inline Q5_0Group q5_0_group(const BlockQ5_0* w, const Q5_0Consts& c) {
    const auto* p = reinterpret_cast<const uint8_t*>(w);
    // 88 bytes of blocks: the second register loads only the words it needs (bytes 64-71).
    const __m512i a = _mm512_loadu_si512(p), b = _mm512_maskz_loadu_epi16(0xF, p + 64);
    const __m128i f = _mm512_castsi512_si128(_mm512_permutex2var_epi16(a, c.words, b));
    const __m128i g = _mm512_castsi512_si128(_mm512_permutex2var_epi16(a, c.words_hi, b));
    const auto lo_mask = static_cast<__mmask64>(_mm_extract_epi64(f, 1));
    const auto hi_mask = static_cast<__mmask64>(_mm_cvtsi128_si64(g));
    const __m512i q = nibbles4(w);
    const __m512i lo = _mm512_and_si512(q, c.m4);
    const __m512i hi = _mm512_and_si512(_mm512_srli_epi16(q, 4), c.m4);
    return {{_mm512_mask_add_epi8(lo, lo_mask, lo, c.sixteen),
             _mm512_mask_add_epi8(hi, hi_mask, hi, c.sixteen)},
            _mm_cvtph_ps(f)};
}

// One Q5_0 block against one Q8_0 block (the last nb % 4 blocks): exact int32 sum.
inline int32_t q5_0_block_isum(const BlockQ5_0& w, const BlockQ8_0& x) {
    const __m128i q = load128(w.qs);
    const __m128i m4 = _mm_set1_epi8(0x0F);
    uint32_t h;
    __builtin_memcpy(&h, w.qh, 4);
    const __m256i nib = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_and_si128(q, m4)),
                                                _mm_and_si128(_mm_srli_epi16(q, 4), m4), 1);
    const __m256i u =
        _mm256_mask_add_epi8(nib, static_cast<__mmask32>(h), nib, _mm256_set1_epi8(16));
    const __m256i xv = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x.qs));
    const __m256i zero = _mm256_setzero_si256();
    const __m256i lanes = _mm256_sub_epi32(_mm256_dpbusd_epi32(zero, u, xv),
                                           _mm256_dpbusd_epi32(zero, _mm256_set1_epi8(16), xv));
    const __m128i s =
        _mm_add_epi32(_mm256_castsi256_si128(lanes), _mm256_extracti128_si256(lanes, 1));
    const __m128i s2 = _mm_add_epi32(s, _mm_unpackhi_epi64(s, s));
    return _mm_cvtsi128_si32(_mm_add_epi32(s2, _mm_srli_si128(s2, 4)));
}

template <int NX>
void dot_q5_0_n(int64_t k, const BlockQ5_0* w, const void* x, size_t xs, float* out, int64_t os) {
    const int64_t nb = k / 32;
    const Q8_0ActLayout l = q8_0_act_layout(k);
    const Q5_0Consts c;
    const uint8_t* row[NX];
    __m512 acc[NX];
    for (int j = 0; j < NX; ++j) {
        row[j] = static_cast<const uint8_t*>(x) + j * xs;
        acc[j] = _mm512_setzero_ps();
    }
    int64_t b = 0;
    for (; b + 4 <= nb; b += 4) {
        prefetch_ahead<NX>(w + b, 2); // 88 bytes
        const Q5_0Group g = q5_0_group(w + b, c);
        for (int j = 0; j < NX; ++j) {
            const __m128 d = _mm_mul_ps(
                g.d, _mm_loadu_ps(reinterpret_cast<const float*>(row[j] + l.scales) + b));
            const __m512 d512 = _mm512_permutexvar_ps(c.spread, _mm512_castps128_ps512(d));
            const int8_t* xi = reinterpret_cast<const int8_t*>(row[j] + l.interleaved) + 32 * b;
            acc[j] = step4(g.u, xi, d512, acc[j], c.sixteen);
        }
    }
    float tail[NX] = {};
    for (; b < nb; ++b) {
        const float dw = _cvtsh_ss(w[b].d);
        for (int j = 0; j < NX; ++j) {
            const auto* xb = reinterpret_cast<const BlockQ8_0*>(row[j]) + b;
            const float dx = reinterpret_cast<const float*>(row[j] + l.scales)[b];
            tail[j] += dw * dx * static_cast<float>(q5_0_block_isum(w[b], *xb));
        }
    }
    for (int j = 0; j < NX; ++j)
        out[j * os] = _mm512_reduce_add_ps(acc[j]) + tail[j];
}

// ---- IQ4_XS: super-blocks of 256, 8 sub-blocks of 32 with 6-bit signed scales ------------------
// The IQ4_NL values (+127, the IQ4_NL table above) of 4 sub-blocks per register, each 128-bit lane
// one sub-block's 16 nibble bytes as they lie; the Q8_K activations' matching halves picked by two
// lane shuffles. Per lane: Σ u·x − 127·Σx (exact int32), times the lane's sub-block scale
// (vpmulld), summed over the super-block in int32 (|sum| < 2^24: exact as float), then one FMA
// with d_w·d_x per super-block.
struct Iq4xsConsts {
    Consts<FormatIq4Nl> nib;
    __m512i spread_lo = _mm512_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3);
    __m512i spread_hi = _mm512_setr_epi32(4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7);
    __m256i shift_lo = _mm256_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28);
    __m256i shift_hi = _mm256_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14);
};

// The 8 sub-block scales (6 bits: low 4 from scales_l's nibbles, high 2 from scales_h) − 32.
inline __m256i iq4xs_scales(const BlockIQ4XS& b, const Iq4xsConsts& c) {
    uint32_t l;
    __builtin_memcpy(&l, b.scales_l, 4);
    const __m256i lo =
        _mm256_and_si256(_mm256_srlv_epi32(_mm256_set1_epi32(static_cast<int>(l)), c.shift_lo),
                         _mm256_set1_epi32(15));
    const __m256i hi = _mm256_and_si256(
        _mm256_srlv_epi32(_mm256_set1_epi32(b.scales_h), c.shift_hi), _mm256_set1_epi32(3));
    return _mm256_sub_epi32(_mm256_or_si256(lo, _mm256_slli_epi32(hi, 4)), _mm256_set1_epi32(32));
}

// Sub-blocks 4h .. 4h+3 (u: their values + 127) against their 128 activation bytes at x.
inline __m512i iq4xs_half(const Unsigned4& u, const int8_t* x, __m512i scale,
                          const Iq4xsConsts& c) {
    const __m512i a = _mm512_loadu_si512(x), b = _mm512_loadu_si512(x + 64);
    // Lane j: elements 0-15 (low nibbles) and 16-31 (high nibbles) of sub-block j.
    const __m512i x_lo = _mm512_shuffle_i64x2(a, b, _MM_SHUFFLE(2, 0, 2, 0));
    const __m512i x_hi = _mm512_shuffle_i64x2(a, b, _MM_SHUFFLE(3, 1, 3, 1));
    const __m512i zero = _mm512_setzero_si512();
    const __m512i uw = _mm512_dpbusd_epi32(_mm512_dpbusd_epi32(zero, u.lo, x_lo), u.hi, x_hi);
    const __m512i off =
        _mm512_dpbusd_epi32(_mm512_dpbusd_epi32(zero, c.nib.offset, x_lo), c.nib.offset, x_hi);
    return _mm512_mullo_epi32(_mm512_sub_epi32(uw, off), scale);
}

template <int NX>
void dot_iq4_xs_n(int64_t k, const BlockIQ4XS* w, const void* x, size_t xs, float* out,
                  int64_t os) {
    const Iq4xsConsts c;
    const BlockQ8K* xr[NX];
    __m512 acc[NX];
    for (int j = 0; j < NX; ++j) {
        xr[j] = reinterpret_cast<const BlockQ8K*>(static_cast<const uint8_t*>(x) + j * xs);
        acc[j] = _mm512_setzero_ps();
    }
    for (int64_t b = 0; b < k / 256; ++b) {
        prefetch_ahead<NX>(w + b, 3); // 136 bytes
        const __m512i s8 = _mm512_castsi256_si512(iq4xs_scales(w[b], c));
        const __m512i s_lo = _mm512_permutexvar_epi32(c.spread_lo, s8);
        const __m512i s_hi = _mm512_permutexvar_epi32(c.spread_hi, s8);
        const float dw = _cvtsh_ss(w[b].d);
        // Decoded once for all NX activation rows.
        const Unsigned4 u0 = unsigned4(_mm512_loadu_si512(w[b].qs), c.nib),
                        u1 = unsigned4(_mm512_loadu_si512(w[b].qs + 64), c.nib);
        for (int j = 0; j < NX; ++j) {
            const __m512i isum = _mm512_add_epi32(iq4xs_half(u0, xr[j][b].qs, s_lo, c),
                                                  iq4xs_half(u1, xr[j][b].qs + 128, s_hi, c));
            acc[j] =
                _mm512_fmadd_ps(_mm512_set1_ps(dw * xr[j][b].d), _mm512_cvtepi32_ps(isum), acc[j]);
        }
    }
    for (int j = 0; j < NX; ++j)
        out[j * os] = _mm512_reduce_add_ps(acc[j]);
}

} // namespace

void dot_iq4_xs(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out,
                int64_t os) {
    const auto* wb = static_cast<const BlockIQ4XS*>(w);
    by_nx(nx, [&](auto n) { dot_iq4_xs_n<n()>(k, wb, x, xs, out, os); });
}

void dot_q5_0_blocks4(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out,
                      int64_t os) {
    const auto* wb = static_cast<const BlockQ5_0*>(w);
    by_nx(nx, [&](auto n) { dot_q5_0_n<n()>(k, wb, x, xs, out, os); });
}

void dot_mxfp4(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    dot<FormatMxfp4>(k, w, x, xs, nx, out, os);
}

void dot_q4_0(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    dot<FormatQ4_0>(k, w, x, xs, nx, out, os);
}

void dot_iq4_nl(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out,
                int64_t os) {
    dot<FormatIq4Nl>(k, w, x, xs, nx, out, os);
}

void dot_mxfp4_rows(int64_t k, const void* w, size_t w_stride, int nw, const void* x, float* out) {
    dot_rows<FormatMxfp4>(k, w, w_stride, nw, x, out);
}

void dot_q4_0_rows(int64_t k, const void* w, size_t w_stride, int nw, const void* x, float* out) {
    dot_rows<FormatQ4_0>(k, w, w_stride, nw, x, out);
}

void dot_iq4_nl_rows(int64_t k, const void* w, size_t w_stride, int nw, const void* x, float* out) {
    dot_rows<FormatIq4Nl>(k, w, w_stride, nw, x, out);
}

} // namespace folio::avx512
