// AVX-512 k-quant (Q2_K, Q3_K, Q4_K, Q5_K, Q6_K) × Q8_K dot products of the decode path
// (kernels/vec_dot_avx512.h).
//
// Q4_K × Q8_K: the AVX2 kernel (vec_dot_q4k_q5k_avx2.cpp dot_q4k_family_n) takes a super-block's
// 128 bytes of nibbles 32 at a time: per 32 bytes two nibble masks, two scale shuffles and, per
// activation row, maddubs + madd twice. Decode (one activation row) is bound by that instruction
// count, not by memory. Here one 512-bit step takes chunks c and c+1 at once: its low 256 bits are
// chunk c, its high 256 bits chunk c+1, the activations come in the matching order from the row's
// pairs area (kernel_table.h Q8_KActLayout: written once per activation row; shuffling them here
// took 4 of the step's ~16 shuffle-port operations), and each half gets its own sub-block scale.
// The int32 lane sums of the two halves are added at the end of the super-block: lane l then holds
// exactly the AVX2 kernel's lane l (integer sums, no rounding). The float steps are not the AVX2
// kernel's two dependent 256-bit FMAs (d·Σ, then dmin·Σmins) with their scalar scale products: the
// sums and the mins' sums share one register, d and dmin another, one 512-bit FMA adds both, and
// the row's result is Σ of the first eight lanes minus Σ of the last eight: decode reads a Q4_K row
// at the speed of these steps, not of memory, when the core is shared. Timings: docs/NUMERICS.md.
//
// Compiled with -mavx512f -mavx512vl -mavx512bw -mavx512vnni (engine/CMakeLists.txt), entered only
// after the run-time CPU check. No inline functions with external linkage from shared headers
// (see gemm_q8_0_avx512.cpp); avx2_intrinsics.h and nx_dispatch.h have internal linkage.
#include "kernels/vec_dot_avx512.h"

#include "kernels/decode_prefetch.h"
#include "kernels/kernel_table.h"
#include "kernels/nx_dispatch.h"

#include "tensor/quant_blocks.h"
#include "tensor/quant_blocks_more.h"

#include "kernels/avx512_intrinsics.h"

#include "kernels/avx2_intrinsics.h"

#include <cstddef>
#include <cstring>
#include <type_traits>

namespace folio::avx512 {

namespace {

using avx2::hsum; // the AVX2 kernels' reduction order

// q4k_scales_mins (ggml-quants.c get_scale_min_k4 for the 8 sub-blocks: bytes 0..7 = scales, 8..15
// = mins) in registers: the scalar version goes through memory (four 32-bit stores read back as one
// 16-byte load, which store forwarding cannot serve). `scales` is followed by the block's nibbles,
// so the 16-byte load stays inside the block.
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

// Constants of the Q4_K steps: int16 scale indices of the four (nibble half, chunk pair) steps,
// sub-block 2c (+1 for the high nibbles) in the low 256 bits, 2c + 2 (+1) in the high 256 bits.
struct Q4KConsts {
    __m512i m4 = _mm512_set1_epi8(0x0F);
    __m512i idx_lo[2] = {int16_halves(0, 2), int16_halves(4, 6)};
    __m512i idx_hi[2] = {int16_halves(1, 3), int16_halves(5, 7)};
    __m512i d_then_dmin = _mm512_inserti64x4(_mm512_set1_epi32(0), _mm256_set1_epi32(1), 1);
};

// Q5_K (block_q5_K: Q4_K's d, dmin and scales, then qh[32], qs[128]) is Q4_K with a fifth bit
// per value: qh bit 2c of byte l for value l of chunk c's low nibbles, bit 2c + 1 for its high
// nibbles. Its step is Q4_K's with those bits added as 16 under byte masks (one vptestmb of qh,
// broadcast to both halves, against the halves' bits), so its int32 lanes are again the AVX2
// kernel's (vec_dot_q4k_q5k_avx2.cpp with Q5KUnpack) and its float steps Q4_K's.
inline __m512i byte_halves(int lo, int hi) {
    return _mm512_inserti64x4(_mm512_set1_epi8(static_cast<char>(lo)),
                              _mm256_set1_epi8(static_cast<char>(hi)), 1);
}
struct Q5KConsts : Q4KConsts {
    __m512i sixteen = _mm512_set1_epi8(16);
    // qh bits of the (nibble half, pair) steps: chunk 2·pair in the low 256 bits, 2·pair + 1 in
    // the high ones.
    __m512i bit_lo[2] = {byte_halves(1 << 0, 1 << 2), byte_halves(1 << 4, 1 << 6)};
    __m512i bit_hi[2] = {byte_halves(1 << 1, 1 << 3), byte_halves(1 << 5, 1 << 7)};
};

// acc[j] += super-block wb (Q4_K or Q5_K) against block b of activation row j: the AVX2
// kernels' int32 lane sums, scaled by d into lanes 0-7 and by dmin (the mins' sums) into lanes
// 8-15 (q4k_family_result takes the difference). Always inlined: GCC kept the step out of line (a
// call per super-block, with vzeroupper, the constants reloaded and the accumulator through
// memory), which cost a third of the one-row kernels' time (docs/NUMERICS.md).
template <int NX, typename Block, typename Consts>
[[gnu::always_inline]] inline void q4k_family_step(const Block& wb, const BlockQ8K* const* xr,
                                                   int64_t b, size_t pairs, const Consts& c,
                                                   __m512* acc) {
    constexpr bool kFifthBit = std::is_same_v<Block, BlockQ5K>;
    if constexpr (kFifthBit)
        prefetch_ahead<NX>(&wb, 3); // 176 bytes
    else
        prefetch_ahead<NX, kDecodePrefetchNtaBytes, 0>(&wb, 3); // 144 bytes: Q4_K's hint
    const __m128i sm = q4k_scales_mins_v(wb.scales);
    const __m512i sc16 = _mm512_castsi256_si512(_mm256_cvtepu8_epi16(sm)); // 8 scales
    const __m256i mins16 = _mm256_cvtepu8_epi16(_mm_unpackhi_epi8(sm, sm));
    __m512i qh = _mm512_setzero_si512();
    if constexpr (kFifthBit)
        qh = _mm512_broadcast_i64x4(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(wb.qh)));

    __m512i isum[NX];
    for (int j = 0; j < NX; ++j)
        isum[j] = _mm512_setzero_si512();
    for (int pair = 0; pair < 2; ++pair) {
        const __m512i q = _mm512_loadu_si512(wb.qs + 64 * pair); // chunks 2·pair, 2·pair+1
        __m512i lo = _mm512_and_si512(q, c.m4);
        __m512i hi = _mm512_and_si512(_mm512_srli_epi16(q, 4), c.m4);
        if constexpr (kFifthBit) {
            lo = _mm512_mask_add_epi8(lo, _mm512_test_epi8_mask(qh, c.bit_lo[pair]), lo, c.sixteen);
            hi = _mm512_mask_add_epi8(hi, _mm512_test_epi8_mask(qh, c.bit_hi[pair]), hi, c.sixteen);
        }
        const __m512i s_lo = _mm512_permutexvar_epi16(c.idx_lo[pair], sc16);
        const __m512i s_hi = _mm512_permutexvar_epi16(c.idx_hi[pair], sc16);
        for (int j = 0; j < NX; ++j) {
            // The row's pairs area (kernel_table.h Q8_KActLayout): lo c | lo c+1, hi c | hi c+1.
            const auto* xq = reinterpret_cast<const uint8_t*>(xr[j]) + pairs + 256 * b + 128 * pair;
            const __m512i x_lo = _mm512_loadu_si512(xq), x_hi = _mm512_loadu_si512(xq + 64);
            // vpdpwssd: the AVX2 kernel's madd by the scales and its add in one step.
            isum[j] = _mm512_dpwssd_epi32(isum[j], _mm512_maddubs_epi16(lo, x_lo), s_lo);
            isum[j] = _mm512_dpwssd_epi32(isum[j], _mm512_maddubs_epi16(hi, x_hi), s_hi);
        }
    }
    // d and dmin (the block's first 4 bytes) as d in lanes 0-7, dmin in lanes 8-15.
    static_assert(offsetof(Block, d) == 0 && offsetof(Block, dmin) == 2);
    uint32_t d_dmin;
    std::memcpy(&d_dmin, &wb, sizeof d_dmin);
    const __m512 dd = _mm512_permutexvar_ps(
        c.d_then_dmin, _mm512_castps128_ps512(_mm_cvtph_ps(_mm_cvtsi32_si128(d_dmin))));
    for (int j = 0; j < NX; ++j) {
        const __m256i s = _mm256_add_epi32(_mm512_castsi512_si256(isum[j]),
                                           _mm512_extracti64x4_epi64(isum[j], 1));
        const __m256i msum = _mm256_madd_epi16(
            mins16, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(xr[j][b].bsums)));
        const __m512i both = _mm512_inserti64x4(_mm512_castsi256_si512(s), msum, 1);
        acc[j] = _mm512_fmadd_ps(_mm512_mul_ps(dd, _mm512_set1_ps(xr[j][b].d)),
                                 _mm512_cvtepi32_ps(both), acc[j]);
    }
}

// A row's result from its Q4_K / Q5_K accumulator: Σ of the scaled sums minus Σ of the mins'.
inline float q4k_family_result(__m512 acc) {
    const __m256 lo = _mm512_castps512_ps256(acc);
    const __m256 hi = _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(acc), 1));
    return hsum(_mm256_sub_ps(lo, hi));
}

// ---- Q6_K × Q8_K ------------------------------------------------------------------------------
// The AVX2 kernel (vec_dot_avx2.cpp dot_q6_k_n) builds a half super-block's four 32-byte groups of
// 6-bit values one at a time (two masks, two shifts and an or each) and takes each through
// maddubs, madd by its scale pair and add: ~75 instructions per 210-byte super-block, so decode
// of a Q6_K tensor was bound by them, not by memory. Here one 512-bit step holds groups g and
// g+1: ql0 | ql1 is one load, the high bits come from qh in both halves, shifted by a per-half
// count, and the activations of g and g+1 are contiguous (no shuffle). The low and high 256-bit
// halves of the int32 sums are added at the end of the super-block: lane l then holds exactly the
// AVX2 kernel's lane l, and the float steps are the AVX2 kernel's, so the results are equal bit
// for bit.
struct Q6KScaleIndex {
    alignas(64) int16_t v[4][32];
};
constexpr Q6KScaleIndex make_q6k_scale_index() {
    Q6KScaleIndex t{};
    for (int s = 0; s < 4; ++s)
        for (int i = 0; i < 32; ++i)
            t.v[s][i] = static_cast<int16_t>(4 * s + i / 8);
    return t;
}
alignas(64) constexpr Q6KScaleIndex kQ6KScaleIndexTable = make_q6k_scale_index();
constexpr const int16_t (&kQ6KScaleIndex)[4][32] = kQ6KScaleIndexTable.v;

struct Q6KConsts {
    __m512i m4 = _mm512_set1_epi8(0x0F);
    __m512i m30 = _mm512_set1_epi8(0x30);
    // The high two bits: group 0 takes qh << 4, group 1 qh << 2, group 2 qh, group 3 qh >> 2.
    __m512i shl01 = int16_halves(4, 2), shr23 = int16_halves(0, 2);
    // int16 scale indices of step (h, p): 16-element runs of scales 8h + 4p .. 8h + 4p + 3.
    __m512i sidx[4] = {_mm512_load_si512(kQ6KScaleIndex[0]), _mm512_load_si512(kQ6KScaleIndex[1]),
                       _mm512_load_si512(kQ6KScaleIndex[2]), _mm512_load_si512(kQ6KScaleIndex[3])};
};

// The Q6_K kind of the drivers below: its block, its constants and its super-block step.
struct Q6KKind {
    using Block = BlockQ6K;
    using Consts = Q6KConsts;
    using Acc = __m256;
    static Acc zero() { return _mm256_setzero_ps(); }
    static float result(Acc acc) { return hsum(acc); }
    template <int NX>
    static void step(const Block& wb, const BlockQ8K* const* xr, int64_t b, size_t pairs,
                     const Consts& c, __m256* acc);
};

// acc[j] += super-block wb against block b of activation row j: the AVX2 kernel's lanes and
// float steps.
template <int NX>
[[gnu::always_inline]] inline void Q6KKind::step(const Block& wb, const BlockQ8K* const* xr,
                                                 int64_t b, size_t /*pairs*/, const Consts& c,
                                                 __m256* acc) {
    prefetch_ahead<NX>(&wb, 4); // 210 bytes
    const __m128i sc8 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(wb.scales));
    const __m256i sc16 = _mm256_cvtepi8_epi16(sc8);
    const __m512i sc16z = _mm512_castsi256_si512(sc16);
    __m512i isum[NX];
    for (int j = 0; j < NX; ++j)
        isum[j] = _mm512_setzero_si512();
    for (int h = 0; h < 2; ++h) {
        const __m512i ql = _mm512_loadu_si512(wb.ql + 64 * h); // ql0 | ql1
        const __m512i qh = _mm512_broadcast_i64x4(
            _mm256_loadu_si256(reinterpret_cast<const __m256i*>(wb.qh + 32 * h)));
        // (low & 0x0F) | (high & 0x30) in one ternary-logic step: m4 ? low : high.
        const __m512i q[2] = {
            _mm512_ternarylogic_epi32(
                c.m4, ql, _mm512_and_si512(_mm512_sllv_epi16(qh, c.shl01), c.m30), 0xCA),
            _mm512_ternarylogic_epi32(c.m4, _mm512_srli_epi16(ql, 4),
                                      _mm512_and_si512(_mm512_srlv_epi16(qh, c.shr23), c.m30),
                                      0xCA)};
        for (int p = 0; p < 2; ++p) {
            const __m512i s = _mm512_permutexvar_epi16(c.sidx[2 * h + p], sc16z);
            for (int j = 0; j < NX; ++j) {
                const __m512i xq = _mm512_loadu_si512(xr[j][b].qs + 128 * h + 64 * p);
                isum[j] = _mm512_dpwssd_epi32(isum[j], _mm512_maddubs_epi16(q[p], xq), s);
            }
        }
    }
    const float dw = _cvtsh_ss(wb.d);
    for (int j = 0; j < NX; ++j) {
        const __m256i s = _mm256_add_epi32(_mm512_castsi512_si256(isum[j]),
                                           _mm512_extracti64x4_epi64(isum[j], 1));
        const __m256i msum = _mm256_madd_epi16(
            sc16, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(xr[j][b].bsums)));
        const __m256i total = _mm256_sub_epi32(s, _mm256_slli_epi32(msum, 5));
        acc[j] =
            _mm256_fmadd_ps(_mm256_set1_ps(dw * xr[j][b].d), _mm256_cvtepi32_ps(total), acc[j]);
    }
}

// ---- Q2_K and Q3_K × Q8_K ---------------------------------------------------------------------
// The AVX2 kernels (vec_dot_more_avx2.cpp dot_q2_k_n, dot_q3_k_n) take a super-block as 8 groups
// of 32 values, one at a time: 2 low bits shifted out of qs (Q3_K: the hmask bit as 4, q_u = q + 4
// in 0..7, unsigned for maddubs, the −4·Σ sc·Σx from the bsums), maddubs, madd by the scale pair
// of the group's two 16-value sub-blocks, add: far below memory. Here one
// 512-bit step holds groups g and g+1 (the same qs bytes in both halves, shifted by per-half
// counts; Q3_K's hmask bits as a vptestmb mask each half tests for its own bit, 4 added under it;
// the activations of g and g+1 contiguous, one load), and vpdpwssd by the 4 scales spread as in
// Q6_K. The halves' int32 lanes are added at the end: lane l then holds the AVX2 kernel's lane l,
// and the float steps are its own, so the results are equal bit for bit.

using avx2::q3k_scales_v;

struct Q2KConsts {
    __m512i m3 = _mm512_set1_epi8(3);
    // Step p (groups 2p, 2p+1 of 32 values): the low bits at qs bytes 32·(p / 2) shifted right
    // by 4·(p % 2) (low half) and 4·(p % 2) + 2 (high half).
    __m512i shift[2] = {int16_halves(0, 2), int16_halves(4, 6)};
    // Scales 4p .. 4p + 3, 8 int16 lanes each (the Q6_K table: the same spread).
    __m512i sidx[4] = {_mm512_load_si512(kQ6KScaleIndex[0]), _mm512_load_si512(kQ6KScaleIndex[1]),
                       _mm512_load_si512(kQ6KScaleIndex[2]), _mm512_load_si512(kQ6KScaleIndex[3])};
};
struct Q3KConsts : Q2KConsts {
    __m512i four = _mm512_set1_epi8(4);
    __m512i hbit[4] = {byte_halves(1 << 0, 1 << 1), byte_halves(1 << 2, 1 << 3),
                       byte_halves(1 << 4, 1 << 5), byte_halves(1 << 6, 1 << 7)}; // bits 2p, 2p+1
};

// acc[j] += super-block wb (Q2_K or Q3_K) against block b of activation row j.
template <int NX, typename Block, typename Consts>
[[gnu::always_inline]] inline void two_bit_step(const Block& wb, const BlockQ8K* const* xr,
                                                int64_t b, const Consts& c, __m256* acc) {
    constexpr bool kQ3 = std::is_same_v<Block, BlockQ3K>;
    prefetch_ahead<NX>(&wb, 2); // 84 or 110 bytes
    __m256i sc16, mins16;
    __m512i hm = _mm512_setzero_si512();
    if constexpr (kQ3) {
        sc16 = _mm256_cvtepi8_epi16(q3k_scales_v(wb.scales));
        mins16 = sc16;
        hm = _mm512_broadcast_i64x4(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(wb.hmask)));
    } else { // scale in the low 4 bits, min in the high 4
        const __m128i raw = _mm_loadu_si128(reinterpret_cast<const __m128i*>(wb.scales));
        const __m128i m4 = _mm_set1_epi8(0x0F);
        sc16 = _mm256_cvtepu8_epi16(_mm_and_si128(raw, m4));
        mins16 = _mm256_cvtepu8_epi16(_mm_and_si128(_mm_srli_epi16(raw, 4), m4));
    }
    const __m512i sc16z = _mm512_castsi256_si512(sc16);
    __m512i isum[NX];
    for (int j = 0; j < NX; ++j)
        isum[j] = _mm512_setzero_si512();
    for (int half = 0; half < 2; ++half) {
        const __m512i q = _mm512_broadcast_i64x4(
            _mm256_loadu_si256(reinterpret_cast<const __m256i*>(wb.qs + 32 * half)));
        for (int p2 = 0; p2 < 2; ++p2) {
            const int p = 2 * half + p2;
            __m512i wq = _mm512_and_si512(_mm512_srlv_epi16(q, c.shift[p2]), c.m3);
            if constexpr (kQ3)
                wq = _mm512_mask_add_epi8(wq, _mm512_test_epi8_mask(hm, c.hbit[p]), wq, c.four);
            const __m512i s = _mm512_permutexvar_epi16(c.sidx[p], sc16z);
            for (int j = 0; j < NX; ++j) {
                const __m512i xq = _mm512_loadu_si512(xr[j][b].qs + 64 * p);
                isum[j] = _mm512_dpwssd_epi32(isum[j], _mm512_maddubs_epi16(wq, xq), s);
            }
        }
    }
    const float dw = _cvtsh_ss(wb.d);
    for (int j = 0; j < NX; ++j) {
        const __m256i s = _mm256_add_epi32(_mm512_castsi512_si256(isum[j]),
                                           _mm512_extracti64x4_epi64(isum[j], 1));
        const __m256i msum = _mm256_madd_epi16(
            mins16, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(xr[j][b].bsums)));
        const float dx = xr[j][b].d;
        if constexpr (kQ3) {
            const __m256i total = _mm256_sub_epi32(s, _mm256_slli_epi32(msum, 2));
            acc[j] = _mm256_fmadd_ps(_mm256_set1_ps(dw * dx), _mm256_cvtepi32_ps(total), acc[j]);
        } else {
            acc[j] = _mm256_fmadd_ps(_mm256_set1_ps(dx * dw), _mm256_cvtepi32_ps(s), acc[j]);
            acc[j] = _mm256_fnmadd_ps(_mm256_set1_ps(dx * _cvtsh_ss(wb.dmin)),
                                      _mm256_cvtepi32_ps(msum), acc[j]);
        }
    }
}

// The Q2_K, Q3_K, Q4_K and Q5_K kinds of the drivers below: block, constants, accumulator and
// the step of the block's family. Q2_K and Q3_K keep the AVX2 kernels' float steps in a 256-bit
// accumulator; Q4_K and Q5_K take d and dmin in one 512-bit FMA (q4k_family_step).
template <bool Nibbles> struct FamilyAcc { // (std::conditional_t drops the vector attributes)
    using type = __m256;
};
template <> struct FamilyAcc<true> { using type = __m512; };
template <typename B, typename C> struct FamilyKind {
    using Block = B;
    using Consts = C;
    static constexpr bool kNibbles = !std::is_same_v<B, BlockQ2K> && !std::is_same_v<B, BlockQ3K>;
    using Acc = typename FamilyAcc<kNibbles>::type;
    static Acc zero() {
        if constexpr (kNibbles)
            return _mm512_setzero_ps();
        else
            return _mm256_setzero_ps();
    }
    static float result(Acc acc) {
        if constexpr (kNibbles)
            return q4k_family_result(acc);
        else
            return hsum(acc);
    }
    template <int NX>
    [[gnu::always_inline]] static void step(const Block& wb, const BlockQ8K* const* xr, int64_t b,
                                            size_t pairs, const Consts& c, Acc* acc) {
        if constexpr (kNibbles)
            q4k_family_step<NX>(wb, xr, b, pairs, c, acc);
        else
            two_bit_step<NX>(wb, xr, b, c, acc);
    }
};
using Q2KKind = FamilyKind<BlockQ2K, Q2KConsts>;
using Q3KKind = FamilyKind<BlockQ3K, Q3KConsts>;
using Q4KKind = FamilyKind<BlockQ4K, Q4KConsts>;
using Q5KKind = FamilyKind<BlockQ5K, Q5KConsts>;

// ---- the k-quant drivers -----------------------------------------------------------------------
// NX activation rows (x, xs bytes apart) against one weight row.
template <typename Kind, int NX>
void kquant_dot(int64_t nb, const void* w, const void* x, size_t xs, float* out, int64_t os) {
    const auto* wb = static_cast<const typename Kind::Block*>(w);
    const BlockQ8K* xr[NX];
    typename Kind::Acc acc[NX];
    for (int j = 0; j < NX; ++j) {
        xr[j] = reinterpret_cast<const BlockQ8K*>(static_cast<const uint8_t*>(x) + j * xs);
        acc[j] = Kind::zero();
    }
    const typename Kind::Consts c;
    const size_t pairs = q8_k_act_layout(nb * kQKK).pairs;
    for (int64_t b = 0; b < nb; ++b)
        Kind::template step<NX>(wb[b], xr, b, pairs, c, acc);
    for (int j = 0; j < NX; ++j)
        out[j * os] = Kind::result(acc[j]);
}

// nw weight rows (w_stride bytes apart) against one activation row, one row after the other:
// each row's steps and bits are the one-row dot's. For decode's short rows (the experts' down
// projections: K = 512, two super-blocks, on the bench shape) the call and its set-up were a
// third of a row's time; here they are paid once per nw rows.
template <typename Kind>
void kquant_dot_rows(int64_t nb, const void* w, size_t w_stride, int nw, const void* x,
                     float* out) {
    const BlockQ8K* xr[1] = {static_cast<const BlockQ8K*>(x)};
    const typename Kind::Consts c;
    const size_t pairs = q8_k_act_layout(nb * kQKK).pairs;
    for (int r = 0; r < nw; ++r) {
        const auto* wr = reinterpret_cast<const typename Kind::Block*>(
            static_cast<const uint8_t*>(w) + r * w_stride);
        typename Kind::Acc acc[1] = {Kind::zero()};
        for (int64_t b = 0; b < nb; ++b)
            Kind::template step<1>(wr[b], xr, b, pairs, c, acc);
        out[r] = Kind::result(acc[0]);
    }
}

} // namespace

void dot_q4_k(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    by_nx(nx, [&](auto n) { kquant_dot<Q4KKind, n()>(k / kQKK, w, x, xs, out, os); });
}

void dot_q4_k_rows(int64_t k, const void* w, size_t w_stride, int nw, const void* x, float* out) {
    kquant_dot_rows<Q4KKind>(k / kQKK, w, w_stride, nw, x, out);
}

void dot_q2_k(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    by_nx(nx, [&](auto n) { kquant_dot<Q2KKind, n()>(k / kQKK, w, x, xs, out, os); });
}

void dot_q2_k_rows(int64_t k, const void* w, size_t w_stride, int nw, const void* x, float* out) {
    kquant_dot_rows<Q2KKind>(k / kQKK, w, w_stride, nw, x, out);
}

void dot_q3_k(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    by_nx(nx, [&](auto n) { kquant_dot<Q3KKind, n()>(k / kQKK, w, x, xs, out, os); });
}

void dot_q3_k_rows(int64_t k, const void* w, size_t w_stride, int nw, const void* x, float* out) {
    kquant_dot_rows<Q3KKind>(k / kQKK, w, w_stride, nw, x, out);
}

void dot_q5_k(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    by_nx(nx, [&](auto n) { kquant_dot<Q5KKind, n()>(k / kQKK, w, x, xs, out, os); });
}

void dot_q5_k_rows(int64_t k, const void* w, size_t w_stride, int nw, const void* x, float* out) {
    kquant_dot_rows<Q5KKind>(k / kQKK, w, w_stride, nw, x, out);
}

void dot_q6_k(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    by_nx(nx, [&](auto n) { kquant_dot<Q6KKind, n()>(k / kQKK, w, x, xs, out, os); });
}

void dot_q6_k_rows(int64_t k, const void* w, size_t w_stride, int nw, const void* x, float* out) {
    kquant_dot_rows<Q6KKind>(k / kQKK, w, w_stride, nw, x, out);
}

} // namespace folio::avx512
