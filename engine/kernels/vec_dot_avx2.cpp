// AVX2 + FMA + F16C dot products (see kernels/kernel_table.h VecDotFn and kernels/matmul.h for the
// arithmetic). Entered only through avx2_kernel_table() after a run-time CPU check. Every helper
// here has internal linkage so no AVX2-compiled copy of a shared inline symbol can leak into
// code that runs on CPUs without AVX2; only declarations and static inline functions are
// included.
#include "kernels/vec_dot_avx2.h"

#include "kernels/avx2_intrinsics.h"
#include "kernels/decode_prefetch.h"
#include "kernels/kernel_table.h"
#include "kernels/nx_dispatch.h"
#include "tensor/quant_blocks.h"
#include "tensor/quant_blocks_more.h"

#include <immintrin.h>

namespace folio::avx2 {

namespace {

// ---- weights with 32-element blocks against Q8_0 activations ---------------------------------

// MXFP4's half E8M0 scales 2^(e-128) (ggml-impl.h ggml_e8m0_to_fp32_half), built with the exact bit
// patterns of e8m0_to_fp32_half.
constexpr float kE8m0Half[256] = {
#define FOLIO_E8M0(e) __builtin_bit_cast(float, (e) < 2 ? (0x00200000u << (e)) : ((e)-1u) << 23)
#define FOLIO_E8M0_8(e)                                                                            \
    FOLIO_E8M0(e), FOLIO_E8M0(e + 1), FOLIO_E8M0(e + 2), FOLIO_E8M0(e + 3), FOLIO_E8M0(e + 4),     \
        FOLIO_E8M0(e + 5), FOLIO_E8M0(e + 6), FOLIO_E8M0(e + 7)
#define FOLIO_E8M0_64(e)                                                                           \
    FOLIO_E8M0_8(e), FOLIO_E8M0_8(e + 8), FOLIO_E8M0_8(e + 16), FOLIO_E8M0_8(e + 24),              \
        FOLIO_E8M0_8(e + 32), FOLIO_E8M0_8(e + 40), FOLIO_E8M0_8(e + 48), FOLIO_E8M0_8(e + 56)
    FOLIO_E8M0_64(0u),
    FOLIO_E8M0_64(64u),
    FOLIO_E8M0_64(128u),
    FOLIO_E8M0_64(192u),
#undef FOLIO_E8M0_64
#undef FOLIO_E8M0_8
#undef FOLIO_E8M0
};

inline __m128 fp16x4(uint16_t a, uint16_t b, uint16_t c, uint16_t d) {
    return _mm_cvtph_ps(_mm_setr_epi16(static_cast<short>(a), static_cast<short>(b),
                                       static_cast<short>(c), static_cast<short>(d), 0, 0, 0, 0));
}

struct DecodeQ8_0 {
    const BlockQ8_0* w;
    const void* block(int64_t b) const { return w + b; }
    __m256i one(int64_t b, float* d) const {
        *d = h2f(w[b].d);
        return load256(w[b].qs);
    }
    void four(int64_t b, __m256i* q, __m128* d) const {
        for (int i = 0; i < 4; ++i)
            q[i] = load256(w[b + i].qs);
        *d = fp16x4(w[b].d, w[b + 1].d, w[b + 2].d, w[b + 3].d);
    }
};

// 4-bit weight types: packed nibbles qs(b), a byte-wise map from nibble to signed int8 weight,
// and the block scales.

// A 16-entry int8 table (tensor/quant_blocks*.h) in both 128-bit lanes, for vpshufb.
inline __m256i table16(const int8_t* values) {
    return _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(values)));
}

// Q4_0: nibble - 8.
struct MapQ4_0 {
    static constexpr bool kWide = false; // |weight| ≤ 8
    static __m256i map(__m256i nib) { return _mm256_sub_epi8(nib, _mm256_set1_epi8(8)); }
};

// IQ4_NL: the non-linear 16-value table. Its values reach 127, so two blocks' int16 products
// could overflow when added: kWide widens each before the add.
struct MapIq4Nl {
    static constexpr bool kWide = true;
    static __m256i map(__m256i nib) { return _mm256_shuffle_epi8(table16(kIq4nlValues), nib); }
};

// Blocks of an fp16 scale d and 16 bytes of nibbles (Q4_0, IQ4_NL), with their type's map.
template <typename Block, typename Map> struct DecodeFp16Nibbles {
    static constexpr bool kWide = Map::kWide;
    const Block* w;
    const uint8_t* qs(int64_t b) const { return w[b].qs; }
    static __m256i map(__m256i nib) { return Map::map(nib); }
    float scale(int64_t b) const { return h2f(w[b].d); }
    __m128 scales4(int64_t b) const { return fp16x4(w[b].d, w[b + 1].d, w[b + 2].d, w[b + 3].d); }
};
using DecodeQ4_0 = DecodeFp16Nibbles<BlockQ4_0, MapQ4_0>;
using DecodeIq4Nl = DecodeFp16Nibbles<BlockIQ4NL, MapIq4Nl>;

struct DecodeMxfp4 {
    static constexpr bool kWide = false; // |weight| ≤ 12
    const BlockMxfp4* w;
    const uint8_t* qs(int64_t b) const { return w[b].qs; }
    static __m256i map(__m256i nib) { return _mm256_shuffle_epi8(table16(kMxfp4Values), nib); }
    float scale(int64_t b) const { return kE8m0Half[w[b].e]; }
    __m128 scales4(int64_t b) const {
        return _mm_setr_ps(kE8m0Half[w[b].e], kE8m0Half[w[b + 1].e], kE8m0Half[w[b + 2].e],
                           kE8m0Half[w[b + 3].e]);
    }
};

// Q4_0 / MXFP4 against Q8_0 activations, four blocks per step. One 256-bit register holds the
// packed bytes of blocks b and b+2 (b+1 and b+3 in a second): masking gives their low nibbles
// side by side, shifting their high nibbles, which match the activation row's interleaved copy
// (kernel_table.h) lane for lane. The two int16 product vectors of a pair are added (|sum| ≤
// 2·2·12·127 < 2^15), widened with madd, and one hadd of the two pairs leaves lanes
// (b, b, b+1, b+1 | b+2, b+2, b+3, b+3), which meet the duplicated scales in one FMA.
template <int NX, typename Decoder>
void dot_nibbles32(int64_t k, const Decoder& dec, const void* x, size_t xs, float* out,
                   int64_t os) {
    const int64_t nb = k / 32;
    const Q8_0ActLayout l = q8_0_act_layout(k);
    const uint8_t* row[NX];
    __m256 acc[NX];
    for (int j = 0; j < NX; ++j) {
        row[j] = static_cast<const uint8_t*>(x) + j * xs;
        acc[j] = _mm256_setzero_ps();
    }
    const __m256i m4 = _mm256_set1_epi8(0x0F);
    const __m256i ones = _mm256_set1_epi16(1);
    const __m256i dup_idx = _mm256_setr_epi32(0, 0, 1, 1, 2, 2, 3, 3);
    int64_t b = 0;
    for (; b + 4 <= nb; b += 4) {
        prefetch_ahead<NX>(dec.qs(b), 2);
        const __m256i v02 = _mm256_inserti128_si256(
            _mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(dec.qs(b)))),
            _mm_loadu_si128(reinterpret_cast<const __m128i*>(dec.qs(b + 2))), 1);
        const __m256i v13 = _mm256_inserti128_si256(
            _mm256_castsi128_si256(
                _mm_loadu_si128(reinterpret_cast<const __m128i*>(dec.qs(b + 1)))),
            _mm_loadu_si128(reinterpret_cast<const __m128i*>(dec.qs(b + 3))), 1);
        __m256i w[4];
        w[0] = Decoder::map(_mm256_and_si256(v02, m4));
        w[1] = Decoder::map(_mm256_and_si256(_mm256_srli_epi16(v02, 4), m4));
        w[2] = Decoder::map(_mm256_and_si256(v13, m4));
        w[3] = Decoder::map(_mm256_and_si256(_mm256_srli_epi16(v13, 4), m4));
        __m256i aw[4];
        for (int i = 0; i < 4; ++i)
            aw[i] = _mm256_sign_epi8(w[i], w[i]);
        const __m256 dw = _mm256_permutevar8x32_ps(_mm256_castps128_ps256(dec.scales4(b)), dup_idx);
        for (int j = 0; j < NX; ++j) {
            const int8_t* xi = reinterpret_cast<const int8_t*>(row[j] + l.interleaved) + 32 * b;
            // w[0..3] = low / high nibbles of blocks (b, b+2), then of (b+1, b+3).
            constexpr int kPiece[4] = {0, 64, 32, 96};
            __m256i p[4];
            for (int i = 0; i < 4; ++i)
                p[i] = _mm256_maddubs_epi16(aw[i], _mm256_sign_epi8(load256(xi + kPiece[i]), w[i]));
            __m256i s02, s13;
            if constexpr (Decoder::kWide) {
                s02 =
                    _mm256_add_epi32(_mm256_madd_epi16(p[0], ones), _mm256_madd_epi16(p[1], ones));
                s13 =
                    _mm256_add_epi32(_mm256_madd_epi16(p[2], ones), _mm256_madd_epi16(p[3], ones));
            } else {
                s02 = _mm256_madd_epi16(_mm256_add_epi16(p[0], p[1]), ones);
                s13 = _mm256_madd_epi16(_mm256_add_epi16(p[2], p[3]), ones);
            }
            const __m256i h = _mm256_hadd_epi32(s02, s13);
            const __m256 dx =
                _mm256_loadu_ps(reinterpret_cast<const float*>(row[j] + l.scales_dup) + 2 * b);
            acc[j] = _mm256_fmadd_ps(_mm256_mul_ps(dw, dx), _mm256_cvtepi32_ps(h), acc[j]);
        }
    }
    float tail[NX] = {};
    for (; b < nb; ++b) {
        const float dw = dec.scale(b);
        const __m256i qw = Decoder::map(unpack_nibbles(dec.qs(b)));
        const __m256i aw = _mm256_sign_epi8(qw, qw);
        for (int j = 0; j < NX; ++j) {
            const auto* xb = reinterpret_cast<const BlockQ8_0*>(row[j]) + b;
            const float dx = reinterpret_cast<const float*>(row[j] + l.scales)[b];
            const int isum = hsum_i32(dot_u8_i8(aw, _mm256_sign_epi8(load256(xb->qs), qw)));
            tail[j] += dw * dx * static_cast<float>(isum);
        }
    }
    for (int j = 0; j < NX; ++j)
        out[j * os] = hsum(acc[j]) + tail[j];
}

// Q8_0 weights, four blocks per step: each block's 32 products are reduced to one exact int32
// (maddubs, madd, then a horizontal-add tree across the four blocks), the four sums are
// converted once and multiplied by the four products d_w·d_x in one 128-bit FMA. The activation
// scales come from the f32 copies after the blocks (Q8_0ActLayout).
template <int NX, typename Decoder>
void dot_blocks32(int64_t k, const Decoder& dec, const void* x, size_t xs, float* out, int64_t os) {
    const int64_t nb = k / 32;
    const BlockQ8_0* xb[NX];
    const float* xd[NX];
    __m128 acc[NX];
    for (int j = 0; j < NX; ++j) {
        xb[j] = x_row<BlockQ8_0>(x, xs, j);
        xd[j] = reinterpret_cast<const float*>(reinterpret_cast<const uint8_t*>(xb[j]) +
                                               q8_0_act_layout(k).scales);
        acc[j] = _mm_setzero_ps();
    }
    int64_t b = 0;
    for (; b + 4 <= nb; b += 4) {
        prefetch_ahead<NX>(dec.block(b), 3);
        __m256i qw[4];
        __m128 dw;
        dec.four(b, qw, &dw);
        __m256i aw[4];
        for (int i = 0; i < 4; ++i)
            aw[i] = _mm256_sign_epi8(qw[i], qw[i]); // |w| as unsigned bytes (-128 -> 128)
        for (int j = 0; j < NX; ++j) {
            __m256i p[4];
            for (int i = 0; i < 4; ++i)
                p[i] = dot_u8_i8(aw[i], _mm256_sign_epi8(load256(xb[j][b + i].qs), qw[i]));
            const __m256i h =
                _mm256_hadd_epi32(_mm256_hadd_epi32(p[0], p[1]), _mm256_hadd_epi32(p[2], p[3]));
            const __m128i s =
                _mm_add_epi32(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
            const __m128 d = _mm_mul_ps(dw, _mm_loadu_ps(xd[j] + b));
            acc[j] = _mm_fmadd_ps(d, _mm_cvtepi32_ps(s), acc[j]);
        }
    }
    float tail[NX] = {};
    for (; b < nb; ++b) {
        float dw;
        const __m256i qw = dec.one(b, &dw);
        const __m256i aw = _mm256_sign_epi8(qw, qw);
        for (int j = 0; j < NX; ++j) {
            const int isum = hsum_i32(dot_u8_i8(aw, _mm256_sign_epi8(load256(xb[j][b].qs), qw)));
            tail[j] += dw * xd[j][b] * static_cast<float>(isum);
        }
    }
    for (int j = 0; j < NX; ++j) {
        __m128 s = _mm_add_ps(acc[j], _mm_movehl_ps(acc[j], acc[j]));
        s = _mm_add_ss(s, _mm_movehdup_ps(s));
        out[j * os] = _mm_cvtss_f32(s) + tail[j];
    }
}

// ---- Q6_K × Q8_K -------------------------------------------------------------------------------
// Σ (q−32)·x·sc is computed as Σ q·x·sc − 32·Σ sc·bsum (q in 0..63 is unsigned for maddubs).
template <int NX>
void dot_q6_k_n(int64_t nb, const BlockQ6K* w, const void* x, size_t xs, float* out, int64_t os) {
    const BlockQ8K* xr[NX];
    __m256 acc[NX];
    for (int j = 0; j < NX; ++j) {
        xr[j] = x_row<BlockQ8K>(x, xs, j);
        acc[j] = _mm256_setzero_ps();
    }
    const __m256i m4 = _mm256_set1_epi8(0x0F);
    const __m256i m30 = _mm256_set1_epi8(0x30);
    for (int64_t b = 0; b < nb; ++b) {
        const BlockQ6K& wb = w[b];
        prefetch_ahead<NX>(&wb, 4); // 210 bytes
        const __m128i sc8 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(wb.scales));
        // Scale pair (s, s+1) for the two 16-element halves of a 32-byte vector, as int16.
        auto pair = [&](int s) {
            const __m128i mask =
                _mm_set_epi64x(0x0101010101010101LL * (s + 1), 0x0101010101010101LL * s);
            return _mm256_cvtepi8_epi16(_mm_shuffle_epi8(sc8, mask));
        };
        __m256i isum[NX];
        for (int j = 0; j < NX; ++j)
            isum[j] = _mm256_setzero_si256();
        for (int h = 0; h < 2; ++h) {
            const __m256i ql0 = load256(wb.ql + 64 * h);
            const __m256i ql1 = load256(wb.ql + 64 * h + 32);
            const __m256i qh = load256(wb.qh + 32 * h);
            __m256i q[4];
            q[0] = _mm256_or_si256(_mm256_and_si256(ql0, m4),
                                   _mm256_and_si256(_mm256_slli_epi16(qh, 4), m30));
            q[1] = _mm256_or_si256(_mm256_and_si256(ql1, m4),
                                   _mm256_and_si256(_mm256_slli_epi16(qh, 2), m30));
            q[2] = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(ql0, 4), m4),
                                   _mm256_and_si256(qh, m30));
            q[3] = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(ql1, 4), m4),
                                   _mm256_and_si256(_mm256_srli_epi16(qh, 2), m30));
            for (int g = 0; g < 4; ++g) {
                const __m256i s = pair(8 * h + 2 * g);
                for (int j = 0; j < NX; ++j) {
                    const __m256i xq = load256(xr[j][b].qs + 128 * h + 32 * g);
                    isum[j] = _mm256_add_epi32(
                        isum[j], _mm256_madd_epi16(_mm256_maddubs_epi16(q[g], xq), s));
                }
            }
        }
        const __m256i sc16 = _mm256_cvtepi8_epi16(sc8);
        const float dw = h2f(wb.d);
        for (int j = 0; j < NX; ++j) {
            const __m256i msum = _mm256_madd_epi16(sc16, load256(xr[j][b].bsums));
            const __m256i total = _mm256_sub_epi32(isum[j], _mm256_slli_epi32(msum, 5));
            acc[j] =
                _mm256_fmadd_ps(_mm256_set1_ps(dw * xr[j][b].d), _mm256_cvtepi32_ps(total), acc[j]);
        }
    }
    for (int j = 0; j < NX; ++j)
        out[j * os] = hsum(acc[j]);
}

// ---- float weights -----------------------------------------------------------------------------
struct LoadF32 {
    __m256 operator()(const void* w, int64_t i) const {
        return _mm256_loadu_ps(static_cast<const float*>(w) + i);
    }
    float scalar(const void* w, int64_t i) const { return static_cast<const float*>(w)[i]; }
};
struct LoadF16 {
    __m256 operator()(const void* w, int64_t i) const {
        return _mm256_cvtph_ps(
            _mm_loadu_si128(reinterpret_cast<const __m128i*>(static_cast<const uint16_t*>(w) + i)));
    }
    float scalar(const void* w, int64_t i) const { return h2f(static_cast<const uint16_t*>(w)[i]); }
};
struct LoadBF16 {
    __m256 operator()(const void* w, int64_t i) const {
        const __m128i v =
            _mm_loadu_si128(reinterpret_cast<const __m128i*>(static_cast<const uint16_t*>(w) + i));
        return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(v), 16));
    }
    float scalar(const void* w, int64_t i) const {
        const uint32_t bits = static_cast<uint32_t>(static_cast<const uint16_t*>(w)[i]) << 16;
        float f;
        __builtin_memcpy(&f, &bits, sizeof f);
        return f;
    }
};

template <int NX, typename Load>
void dot_float_n(int64_t k, const void* w, const void* x, size_t xs, float* out, int64_t os,
                 Load load) {
    const float* xr[NX];
    for (int j = 0; j < NX; ++j)
        xr[j] = reinterpret_cast<const float*>(static_cast<const uint8_t*>(x) + j * xs);
    constexpr int kUnroll = NX == 1 ? 4 : 2;
    __m256 acc[kUnroll][NX];
    for (int u = 0; u < kUnroll; ++u)
        for (int j = 0; j < NX; ++j)
            acc[u][j] = _mm256_setzero_ps();
    int64_t i = 0;
    for (; i + 8 * kUnroll <= k; i += 8 * kUnroll) {
        for (int u = 0; u < kUnroll; ++u) {
            const __m256 wv = load(w, i + 8 * u);
            for (int j = 0; j < NX; ++j)
                acc[u][j] = _mm256_fmadd_ps(wv, _mm256_loadu_ps(xr[j] + i + 8 * u), acc[u][j]);
        }
    }
    for (; i + 8 <= k; i += 8) {
        const __m256 wv = load(w, i);
        for (int j = 0; j < NX; ++j)
            acc[0][j] = _mm256_fmadd_ps(wv, _mm256_loadu_ps(xr[j] + i), acc[0][j]);
    }
    for (int j = 0; j < NX; ++j) {
        __m256 s = acc[0][j];
        for (int u = 1; u < kUnroll; ++u)
            s = _mm256_add_ps(s, acc[u][j]);
        float sum = hsum(s);
        for (int64_t t = i; t < k; ++t)
            sum += load.scalar(w, t) * xr[j][t];
        out[j * os] = sum;
    }
}

template <typename Block, typename Decoder> struct Blocks32 {
    template <int NX> struct Fn {
        static void run(int64_t k, const void* w, const void* x, size_t xs, float* out,
                        int64_t os) {
            dot_blocks32<NX>(k, Decoder{static_cast<const Block*>(w)}, x, xs, out, os);
        }
    };
};

template <typename Block, typename Decoder> struct Nibbles32 {
    template <int NX> struct Fn {
        static void run(int64_t k, const void* w, const void* x, size_t xs, float* out,
                        int64_t os) {
            dot_nibbles32<NX>(k, Decoder{static_cast<const Block*>(w)}, x, xs, out, os);
        }
    };
};

template <int NX> struct Q6KFn {
    static void run(int64_t k, const void* w, const void* x, size_t xs, float* out, int64_t os) {
        dot_q6_k_n<NX>(k / kQKK, static_cast<const BlockQ6K*>(w), x, xs, out, os);
    }
};

template <typename Load> struct FloatDot {
    template <int NX> struct Fn {
        static void run(int64_t k, const void* w, const void* x, size_t xs, float* out,
                        int64_t os) {
            dot_float_n<NX>(k, w, x, xs, out, os, Load{});
        }
    };
};

} // namespace

void dot_f32(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    by_nx<FloatDot<LoadF32>::Fn>(nx, k, w, x, xs, out, os);
}
void dot_f16(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    by_nx<FloatDot<LoadF16>::Fn>(nx, k, w, x, xs, out, os);
}
void dot_bf16(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    by_nx<FloatDot<LoadBF16>::Fn>(nx, k, w, x, xs, out, os);
}
void dot_q8_0(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    by_nx<Blocks32<BlockQ8_0, DecodeQ8_0>::Fn>(nx, k, w, x, xs, out, os);
}
void dot_q4_0(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    by_nx<Nibbles32<BlockQ4_0, DecodeQ4_0>::Fn>(nx, k, w, x, xs, out, os);
}
void dot_mxfp4(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    by_nx<Nibbles32<BlockMxfp4, DecodeMxfp4>::Fn>(nx, k, w, x, xs, out, os);
}
void dot_iq4_nl(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out,
                int64_t os) {
    by_nx<Nibbles32<BlockIQ4NL, DecodeIq4Nl>::Fn>(nx, k, w, x, xs, out, os);
}
void dot_q6_k(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    by_nx<Q6KFn>(nx, k, w, x, xs, out, os);
}

// Q8_0 activation quantizer (ggml-cpu's vec_dot_type of Q8_0 weights), bit-identical to
// quantize_row_q8_0_act: the same fp32 operations (max |x|, amax/127 -> fp16 with
// round-to-nearest-even, x·(127/amax) rounded half to even).
void quantize_q8_0(const float* x, void* dst, int64_t n) {
    auto* out = static_cast<BlockQ8_0*>(dst);
    const __m256 sign = _mm256_set1_ps(-0.0f);
    for (int64_t b = 0; b < n / kQK8_0; ++b, x += kQK8_0) {
        __m256 v[4];
        for (int i = 0; i < 4; ++i)
            v[i] = _mm256_loadu_ps(x + 8 * i);
        __m256 m = _mm256_max_ps(
            _mm256_max_ps(_mm256_andnot_ps(sign, v[0]), _mm256_andnot_ps(sign, v[1])),
            _mm256_max_ps(_mm256_andnot_ps(sign, v[2]), _mm256_andnot_ps(sign, v[3])));
        __m128 m4 = _mm_max_ps(_mm256_castps256_ps128(m), _mm256_extractf128_ps(m, 1));
        m4 = _mm_max_ps(m4, _mm_movehl_ps(m4, m4));
        m4 = _mm_max_ss(m4, _mm_movehdup_ps(m4));
        const float amax = _mm_cvtss_f32(m4);
        out[b].d = _cvtss_sh(amax / 127.0f, _MM_FROUND_TO_NEAREST_INT);
        const __m256 id = _mm256_set1_ps(amax != 0 ? 127.0f / amax : 0.0f);
        __m256i q[4];
        for (int i = 0; i < 4; ++i)
            q[i] = _mm256_cvtps_epi32(_mm256_round_ps(
                _mm256_mul_ps(v[i], id), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
        const __m256i p =
            _mm256_packs_epi16(_mm256_packs_epi32(q[0], q[1]), _mm256_packs_epi32(q[2], q[3]));
        const __m256i ordered =
            _mm256_permutevar8x32_epi32(p, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out[b].qs), ordered);
    }
}

} // namespace folio::avx2
