// AVX2 + FMA + F16C dot products of the legacy 32-element types (Q4_1, Q5_0, Q5_1) and
// of Q2_K, Q3_K, IQ4_XS (vec_dot_more_avx2.h; Q5_K is in vec_dot_q4k_q5k_avx2.cpp). Integer sums
// per block or sub-block are exact (maddubs on unsigned weights, or |w| against sign-adjusted
// activations for signed ones; every int16 pair sum stays below 2^15), then scaled in fp32.
// Internal linkage only, like vec_dot_avx2.cpp: no AVX2 copy of a shared inline symbol may leak
// into generic code.
#include "kernels/vec_dot_more_avx2.h"

#include "kernels/avx2_intrinsics.h"
#include "kernels/nx_dispatch.h"
#include "tensor/quant_blocks.h"
#include "tensor/quant_blocks_more.h"

#include <immintrin.h>

namespace folio::avx2 {

namespace {

// Byte i = 0x10 when bit i of the 32-bit little-endian qh is set, else 0 (Q5_0 / Q5_1).
inline __m256i fifth_bits(const uint8_t* qh) {
    uint32_t bits;
    __builtin_memcpy(&bits, qh, 4);
    const __m256i spread =
        _mm256_shuffle_epi8(_mm256_set1_epi32(static_cast<int>(bits)),
                            _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2,
                                             2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3));
    const __m256i bit = _mm256_set1_epi64x(static_cast<long long>(0x8040201008040201ULL));
    const __m256i set = _mm256_cmpeq_epi8(_mm256_and_si256(spread, bit), bit);
    return _mm256_and_si256(set, _mm256_set1_epi8(0x10));
}

// The IQ4_NL values (tensor/quant_blocks_more.h) in both 128-bit lanes, for vpshufb.
inline __m256i iq4_table() {
    return _mm256_broadcastsi128_si256(
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(kIq4nlValues)));
}

// ---- 32-element blocks ---------------------------------------------------------------------
// Decoders: weights(b) gives the 32 weights of block b as bytes (signed when kSigned), scale(b)
// d_w; kMin adds m_w·s_x per block (Q8_1 activations).
struct DecQ4_1 {
    using XBlock = BlockQ8_1;
    static constexpr bool kSigned = false, kMin = true;
    const BlockQ4_1* w;
    __m256i weights(int64_t b) const { return unpack_nibbles(w[b].qs); }
    float scale(int64_t b) const { return h2f(w[b].d); }
    float min(int64_t b) const { return h2f(w[b].m); }
};
struct DecQ5_1 {
    using XBlock = BlockQ8_1;
    static constexpr bool kSigned = false, kMin = true;
    const BlockQ5_1* w;
    __m256i weights(int64_t b) const {
        return _mm256_or_si256(unpack_nibbles(w[b].qs), fifth_bits(w[b].qh));
    }
    float scale(int64_t b) const { return h2f(w[b].d); }
    float min(int64_t b) const { return h2f(w[b].m); }
};
struct DecQ5_0 {
    using XBlock = BlockQ8_0;
    static constexpr bool kSigned = true, kMin = false;
    const BlockQ5_0* w;
    __m256i weights(int64_t b) const {
        return _mm256_sub_epi8(_mm256_or_si256(unpack_nibbles(w[b].qs), fifth_bits(w[b].qh)),
                               _mm256_set1_epi8(16));
    }
    float scale(int64_t b) const { return h2f(w[b].d); }
    float min(int64_t) const { return 0.0f; }
};

template <int NX, typename Dec>
void dot32_n(int64_t k, const Dec& dec, const void* x, size_t xs, float* out, int64_t os) {
    using XBlock = typename Dec::XBlock;
    const XBlock* xr[NX];
    __m256 acc[NX];
    float mins[NX] = {};
    for (int j = 0; j < NX; ++j) {
        xr[j] = x_row<XBlock>(x, xs, j);
        acc[j] = _mm256_setzero_ps();
    }
    for (int64_t b = 0; b < k / 32; ++b) {
        const __m256i q = dec.weights(b);
        const __m256i aq = Dec::kSigned ? _mm256_sign_epi8(q, q) : q;
        const float dw = dec.scale(b);
        for (int j = 0; j < NX; ++j) {
            __m256i xq = load256(xr[j][b].qs);
            if (Dec::kSigned)
                xq = _mm256_sign_epi8(xq, q);
            const __m256 d = _mm256_set1_ps(dw * h2f(xr[j][b].d));
            acc[j] = _mm256_fmadd_ps(d, _mm256_cvtepi32_ps(dot_u8_i8(aq, xq)), acc[j]);
            if constexpr (Dec::kMin)
                mins[j] += dec.min(b) * h2f(xr[j][b].s);
        }
    }
    for (int j = 0; j < NX; ++j)
        out[j * os] = hsum(acc[j]) + mins[j];
}

// ---- Q2_K ----------------------------------------------------------------------------------
// Scale pair (s, s+1) of 16 unsigned byte scales as int16 for the two halves of a 32-byte vector.
inline __m256i scale_pair_u8(__m128i sc8, int s) {
    const __m128i mask = _mm_set_epi64x(0x0101010101010101LL * (s + 1), 0x0101010101010101LL * s);
    return _mm256_cvtepu8_epi16(_mm_shuffle_epi8(sc8, mask));
}
inline __m256i scale_pair_i8(__m128i sc8, int s) {
    const __m128i mask = _mm_set_epi64x(0x0101010101010101LL * (s + 1), 0x0101010101010101LL * s);
    return _mm256_cvtepi8_epi16(_mm_shuffle_epi8(sc8, mask));
}

template <int NX>
void dot_q2_k_n(int64_t nb, const BlockQ2K* w, const void* x, size_t xs, float* out, int64_t os) {
    const BlockQ8K* xr[NX];
    __m256 acc[NX];
    for (int j = 0; j < NX; ++j) {
        xr[j] = x_row<BlockQ8K>(x, xs, j);
        acc[j] = _mm256_setzero_ps();
    }
    const __m256i m3 = _mm256_set1_epi8(3);
    for (int64_t b = 0; b < nb; ++b) {
        const BlockQ2K& wb = w[b];
        const __m128i raw = _mm_loadu_si128(reinterpret_cast<const __m128i*>(wb.scales));
        const __m128i sc = _mm_and_si128(raw, _mm_set1_epi8(0x0F));
        const __m256i mins16 =
            _mm256_cvtepu8_epi16(_mm_and_si128(_mm_srli_epi16(raw, 4), _mm_set1_epi8(0x0F)));
        __m256i isum[NX];
        for (int j = 0; j < NX; ++j)
            isum[j] = _mm256_setzero_si256();
        for (int c = 0; c < 2; ++c) {
            const __m256i q = load256(wb.qs + 32 * c);
            for (int sh = 0; sh < 4; ++sh) {
                const __m256i wq = _mm256_and_si256(shift_right16(q, 2 * sh), m3);
                const __m256i s = scale_pair_u8(sc, 8 * c + 2 * sh);
                for (int j = 0; j < NX; ++j) {
                    const __m256i xq = load256(xr[j][b].qs + 128 * c + 32 * sh);
                    isum[j] = _mm256_add_epi32(isum[j],
                                               _mm256_madd_epi16(_mm256_maddubs_epi16(wq, xq), s));
                }
            }
        }
        kquant_dmin_step<NX>(xr, b, wb.d, wb.dmin, mins16, isum, acc);
    }
    for (int j = 0; j < NX; ++j)
        out[j * os] = hsum(acc[j]);
}

// ---- Q3_K ----------------------------------------------------------------------------------
// q − 4·[hmask bit clear] = q_u − 4 with q_u = low bits | hmask bit << 2 in 0..7 (unsigned for
// maddubs); the −4·Σ sc·Σ x part comes from the bsums.
template <int NX>
void dot_q3_k_n(int64_t nb, const BlockQ3K* w, const void* x, size_t xs, float* out, int64_t os) {
    const BlockQ8K* xr[NX];
    __m256 acc[NX];
    for (int j = 0; j < NX; ++j) {
        xr[j] = x_row<BlockQ8K>(x, xs, j);
        acc[j] = _mm256_setzero_ps();
    }
    const __m256i m3 = _mm256_set1_epi8(3);
    const __m256i m1 = _mm256_set1_epi8(1);
    for (int64_t b = 0; b < nb; ++b) {
        const BlockQ3K& wb = w[b];
        const __m128i sc8 = q3k_scales_v(wb.scales);
        const __m256i hm = load256(wb.hmask);
        __m256i isum[NX];
        for (int j = 0; j < NX; ++j)
            isum[j] = _mm256_setzero_si256();
        for (int c = 0; c < 2; ++c) {
            const __m256i q = load256(wb.qs + 32 * c);
            for (int sh = 0; sh < 4; ++sh) {
                const __m256i lo = _mm256_and_si256(shift_right16(q, 2 * sh), m3);
                const __m256i hi =
                    _mm256_slli_epi16(_mm256_and_si256(shift_right16(hm, 4 * c + sh), m1), 2);
                const __m256i wq = _mm256_or_si256(lo, hi);
                const __m256i s = scale_pair_i8(sc8, 8 * c + 2 * sh);
                for (int j = 0; j < NX; ++j) {
                    const __m256i xq = load256(xr[j][b].qs + 128 * c + 32 * sh);
                    isum[j] = _mm256_add_epi32(isum[j],
                                               _mm256_madd_epi16(_mm256_maddubs_epi16(wq, xq), s));
                }
            }
        }
        const __m256i sc16 = _mm256_cvtepi8_epi16(sc8);
        const float dw = h2f(wb.d);
        for (int j = 0; j < NX; ++j) {
            const __m256i msum = _mm256_madd_epi16(sc16, load256(xr[j][b].bsums));
            const __m256i total = _mm256_sub_epi32(isum[j], _mm256_slli_epi32(msum, 2));
            acc[j] =
                _mm256_fmadd_ps(_mm256_set1_ps(dw * xr[j][b].d), _mm256_cvtepi32_ps(total), acc[j]);
        }
    }
    for (int j = 0; j < NX; ++j)
        out[j * os] = hsum(acc[j]);
}

// ---- IQ4_XS --------------------------------------------------------------------------------
// The 8 signed sub-block scales (iq4xs_scale − 32) as int16, in registers: low 4 bits from the
// nibbles of scales_l (sub-block ib: byte ib / 2, nibble ib % 2), high 2 bits from scales_h
// (bits 2·ib).
inline __m128i iq4xs_scales_v(const BlockIQ4XS& b) {
    uint32_t l;
    __builtin_memcpy(&l, b.scales_l, 4);
    const __m128i v = _mm_cvtsi32_si128(static_cast<int>(l));
    const __m128i m4 = _mm_set1_epi8(0x0F);
    const __m128i low =
        _mm_unpacklo_epi8(_mm_and_si128(v, m4), _mm_and_si128(_mm_srli_epi16(v, 4), m4));
    const __m256i h =
        _mm256_and_si256(_mm256_srlv_epi32(_mm256_set1_epi32(b.scales_h),
                                           _mm256_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14)),
                         _mm256_set1_epi32(3));
    const __m128i h16 = _mm_packs_epi32(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
    return _mm_sub_epi16(_mm_or_si128(_mm_cvtepu8_epi16(low), _mm_slli_epi16(h16, 4)),
                         _mm_set1_epi16(32));
}

// Two sub-blocks per step: one 32-byte load holds both sub-blocks' 16 bytes of nibbles, so the low
// nibbles are [ib elements 0..15 | ib+1 elements 0..15] and the high nibbles the elements 16..31;
// the activations are rearranged to match (two 128-bit lane permutes) and each half takes its
// sub-block's scale (twice the work per load of one sub-block per step).
template <int NX>
void dot_iq4_xs_n(int64_t nb, const BlockIQ4XS* w, const void* x, size_t xs, float* out,
                  int64_t os) {
    const BlockQ8K* xr[NX];
    __m256 acc[NX];
    for (int j = 0; j < NX; ++j) {
        xr[j] = x_row<BlockQ8K>(x, xs, j);
        acc[j] = _mm256_setzero_ps();
    }
    const __m256i table = iq4_table();
    const __m256i m4 = _mm256_set1_epi8(0x0F);
    for (int64_t b = 0; b < nb; ++b) {
        const BlockIQ4XS& wb = w[b];
        const __m256i sc16 = _mm256_broadcastsi128_si256(iq4xs_scales_v(wb));
        __m256i isum[NX];
        for (int j = 0; j < NX; ++j)
            isum[j] = _mm256_setzero_si256();
        for (int ib = 0; ib < 8; ib += 2) {
            const __m256i q = load256(wb.qs + 16 * ib);
            const __m256i vlo = _mm256_shuffle_epi8(table, _mm256_and_si256(q, m4));
            const __m256i vhi =
                _mm256_shuffle_epi8(table, _mm256_and_si256(_mm256_srli_epi16(q, 4), m4));
            const __m256i alo = _mm256_sign_epi8(vlo, vlo), ahi = _mm256_sign_epi8(vhi, vhi);
            // int16 scale of sub-block ib in the low lane, ib + 1 in the high lane.
            const __m256i ls = _mm256_shuffle_epi8(
                sc16, _mm256_setr_epi8(2 * ib, 2 * ib + 1, 2 * ib, 2 * ib + 1, 2 * ib, 2 * ib + 1,
                                       2 * ib, 2 * ib + 1, 2 * ib, 2 * ib + 1, 2 * ib, 2 * ib + 1,
                                       2 * ib, 2 * ib + 1, 2 * ib, 2 * ib + 1, 2 * ib + 2,
                                       2 * ib + 3, 2 * ib + 2, 2 * ib + 3, 2 * ib + 2, 2 * ib + 3,
                                       2 * ib + 2, 2 * ib + 3, 2 * ib + 2, 2 * ib + 3, 2 * ib + 2,
                                       2 * ib + 3, 2 * ib + 2, 2 * ib + 3, 2 * ib + 2, 2 * ib + 3));
            for (int j = 0; j < NX; ++j) {
                const __m256i a = load256(xr[j][b].qs + 32 * ib);
                const __m256i bb = load256(xr[j][b].qs + 32 * ib + 32);
                const __m256i xlo = _mm256_permute2x128_si256(a, bb, 0x20);
                const __m256i xhi = _mm256_permute2x128_si256(a, bb, 0x31);
                const __m256i plo = _mm256_maddubs_epi16(alo, _mm256_sign_epi8(xlo, vlo));
                const __m256i phi = _mm256_maddubs_epi16(ahi, _mm256_sign_epi8(xhi, vhi));
                isum[j] = _mm256_add_epi32(isum[j], _mm256_add_epi32(_mm256_madd_epi16(plo, ls),
                                                                     _mm256_madd_epi16(phi, ls)));
            }
        }
        const float dw = h2f(wb.d);
        for (int j = 0; j < NX; ++j)
            acc[j] = _mm256_fmadd_ps(_mm256_set1_ps(dw * xr[j][b].d), _mm256_cvtepi32_ps(isum[j]),
                                     acc[j]);
    }
    for (int j = 0; j < NX; ++j)
        out[j * os] = hsum(acc[j]);
}

template <typename Dec, typename Block> struct Dot32 {
    template <int NX> struct Fn {
        static void run(int64_t k, const void* w, const void* x, size_t xs, float* out,
                        int64_t os) {
            dot32_n<NX>(k, Dec{static_cast<const Block*>(w)}, x, xs, out, os);
        }
    };
};

#define FOLIO_SUPER_BLOCK_FN(Name, Block, Kernel)                                                  \
    template <int NX> struct Name {                                                                \
        static void run(int64_t k, const void* w, const void* x, size_t xs, float* out,            \
                        int64_t os) {                                                              \
            Kernel<NX>(k / kQKK, static_cast<const Block*>(w), x, xs, out, os);                    \
        }                                                                                          \
    };
FOLIO_SUPER_BLOCK_FN(Q2KFn, BlockQ2K, dot_q2_k_n)
FOLIO_SUPER_BLOCK_FN(Q3KFn, BlockQ3K, dot_q3_k_n)
FOLIO_SUPER_BLOCK_FN(IQ4XSFn, BlockIQ4XS, dot_iq4_xs_n)
#undef FOLIO_SUPER_BLOCK_FN

} // namespace

void dot_q4_1(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    by_nx<Dot32<DecQ4_1, BlockQ4_1>::Fn>(nx, k, w, x, xs, out, os);
}
void dot_q5_0(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    by_nx<Dot32<DecQ5_0, BlockQ5_0>::Fn>(nx, k, w, x, xs, out, os);
}
void dot_q5_1(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    by_nx<Dot32<DecQ5_1, BlockQ5_1>::Fn>(nx, k, w, x, xs, out, os);
}
void dot_q2_k(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    by_nx<Q2KFn>(nx, k, w, x, xs, out, os);
}
void dot_q3_k(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    by_nx<Q3KFn>(nx, k, w, x, xs, out, os);
}
void dot_iq4_xs(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out,
                int64_t os) {
    by_nx<IQ4XSFn>(nx, k, w, x, xs, out, os);
}

} // namespace folio::avx2
