// AVX2 dot products of the grid i-quants and ternary types · Q8_K activations, the arithmetic of
// kernels/reference/vec_dot_iq_ref.cpp. Grid types: each chunk of 32 weights is decoded in
// registers (magnitudes |q| as unsigned bytes, sign carriers from 8-byte sign tables, int16 scales
// per pair of values) and multiplied with up to four activation rows by maddubs (|q| · sign(x, q))
// and madd with the scales. Ternary types: a super-block decoded to codes 0..2, minus Σx. The same
// exact int32 sums as the reference, so both differ only by float summation order. Entered only
// through the AVX2 kernel table; every helper has internal linkage.
#include "kernels/vec_dot_iq_avx2.h"

#include "kernels/avx2_intrinsics.h"
#include "tensor/iq_blocks.h"
#include "tensor/iq_grids.h"
#include "tensor/quant_blocks.h"

#include <immintrin.h>

namespace folio::avx2 {

namespace {

inline uint32_t le32(const uint8_t* p) {
    uint32_t v;
    __builtin_memcpy(&v, p, 4);
    return v;
}

// One decoded chunk of 32 values (values 32c .. 32c+31 of a super-block), kept in registers.
struct Chunk {
    __m256i mag;   // |q| as unsigned bytes
    __m256i sign;  // any byte with the sign of q (zero only where |q| = 0)
    __m256i scale; // int16 lane p: scale of values 2p, 2p+1 of the chunk
};

// One decoded super-block of the ternary types (codes 0..2 per value).
struct Decoded {
    __m256i mag[8];
    float d;
};

// int16 scales of a chunk: one scale for all of it, or one per half (16 values).
inline __m256i chunk_scale(int s) {
    return _mm256_set1_epi16(static_cast<short>(s));
}
inline __m256i chunk_scales(int lo, int hi) {
    return _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_set1_epi16(static_cast<short>(lo))),
                                   _mm_set1_epi16(static_cast<short>(hi)), 1);
}

// 8 sign bytes of a sign byte v (bit j negates value j): byte j is -1 or +1.
constexpr uint64_t sign_bytes(unsigned v) {
    uint64_t r = 0;
    for (int j = 0; j < 8; ++j)
        r |= uint64_t{(v >> j) & 1 ? 0xFFu : 0x01u} << (8 * j);
    return r;
}
struct SignTable {
    uint64_t of_byte[256];
    uint64_t of_code[128]; // a 7-bit code, its eighth bit the parity (kIqSigns)
};
constexpr SignTable make_sign_table() {
    SignTable t{};
    for (unsigned v = 0; v < 256; ++v)
        t.of_byte[v] = sign_bytes(v);
    for (unsigned c = 0; c < 128; ++c)
        t.of_code[c] = sign_bytes(c | (__builtin_popcount(c) & 1u) << 7);
    return t;
}
// One 8-byte load per 8 values instead of spreading the bits in registers.
constexpr SignTable kSigns = make_sign_table();

inline __m256i x4(uint64_t a, uint64_t b, uint64_t c, uint64_t d) {
    return _mm256_set_epi64x(static_cast<long long>(d), static_cast<long long>(c),
                             static_cast<long long>(b), static_cast<long long>(a));
}

// Four 7-bit sign codes (bits 0-27) -> ±1 per value of the chunk.
inline __m256i code_signs(uint32_t codes28) {
    return x4(kSigns.of_code[codes28 & 127], kSigns.of_code[(codes28 >> 7) & 127],
              kSigns.of_code[(codes28 >> 14) & 127], kSigns.of_code[(codes28 >> 21) & 127]);
}

// Four sign bytes (byte l: bit j negates value j of group l) -> ±1 per value of the chunk.
inline __m256i byte_signs(uint32_t signs4) {
    return x4(kSigns.of_byte[signs4 & 0xFF], kSigns.of_byte[(signs4 >> 8) & 0xFF],
              kSigns.of_byte[(signs4 >> 16) & 0xFF], kSigns.of_byte[signs4 >> 24]);
}

inline __m256i grid64x4(const uint64_t* grid, int i0, int i1, int i2, int i3) {
    return x4(grid[i0], grid[i1], grid[i2], grid[i3]);
}

inline __m256i grid32x8(const uint32_t* grid, const int* i) {
    return _mm256_setr_epi32(static_cast<int>(grid[i[0]]), static_cast<int>(grid[i[1]]),
                             static_cast<int>(grid[i[2]]), static_cast<int>(grid[i[3]]),
                             static_cast<int>(grid[i[4]]), static_cast<int>(grid[i[5]]),
                             static_cast<int>(grid[i[6]]), static_cast<int>(grid[i[7]]));
}

inline Chunk signed_chunk(__m256i q, __m256i scale) {
    return {_mm256_abs_epi8(q), q, scale};
}

// ---- decoders (tensor/iq_decode.cpp has the plain form of each) --------------------------------
// d(block): the super-block scale; chunk(block, c): chunk c, decoded where it is used (a whole
// super-block decoded first went through a 768-byte buffer in memory).

struct DecodeIq2xxs {
    using Block = BlockIq2xxs;
    static constexpr float kMult = 0.125f;
    static float d(const Block& b) { return h2f(b.d); }
    static Chunk chunk(const Block& b, int c) {
        const uint32_t idx = b.qs[4 * c] | static_cast<uint32_t>(b.qs[4 * c + 1]) << 16;
        const uint32_t sg = b.qs[4 * c + 2] | static_cast<uint32_t>(b.qs[4 * c + 3]) << 16;
        return {grid64x4(kIq2xxsGrid, idx & 0xFF, (idx >> 8) & 0xFF, (idx >> 16) & 0xFF, idx >> 24),
                code_signs(sg), chunk_scale(2 * static_cast<int>(sg >> 28) + 1)};
    }
};

struct DecodeIq2xs {
    using Block = BlockIq2xs;
    static constexpr float kMult = 0.125f;
    static float d(const Block& b) { return h2f(b.d); }
    static Chunk chunk(const Block& b, int c) {
        const uint16_t* q = b.qs + 4 * c;
        return {grid64x4(kIq2xsGrid, q[0] & 511, q[1] & 511, q[2] & 511, q[3] & 511),
                x4(kSigns.of_code[q[0] >> 9], kSigns.of_code[q[1] >> 9], kSigns.of_code[q[2] >> 9],
                   kSigns.of_code[q[3] >> 9]),
                chunk_scales(2 * (b.scales[c] & 0xF) + 1, 2 * (b.scales[c] >> 4) + 1)};
    }
};

struct DecodeIq2s {
    using Block = BlockIq2s;
    static constexpr float kMult = 0.125f;
    static float d(const Block& b) { return h2f(b.d); }
    static Chunk chunk(const Block& b, int c) {
        const uint8_t* q = b.qs + 4 * c;
        const int h = b.qh[c];
        return {grid64x4(kIq2sGrid, q[0] | (h & 3) << 8, q[1] | ((h >> 2) & 3) << 8,
                         q[2] | ((h >> 4) & 3) << 8, q[3] | ((h >> 6) & 3) << 8),
                byte_signs(le32(b.qs + kQKIq / 8 + 4 * c)),
                chunk_scales(2 * (b.scales[c] & 0xF) + 1, 2 * (b.scales[c] >> 4) + 1)};
    }
};

struct DecodeIq3xxs {
    using Block = BlockIq3xxs;
    static constexpr float kMult = 0.25f;
    static float d(const Block& b) { return h2f(b.d); }
    static Chunk chunk(const Block& b, int c) {
        const uint8_t* q = b.qs + 8 * c;
        const int idx[8] = {q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7]};
        const uint32_t sg = le32(b.qs + kQKIq / 4 + 4 * c);
        return {grid32x8(kIq3xxsGrid, idx), code_signs(sg),
                chunk_scale(2 * static_cast<int>(sg >> 28) + 1)};
    }
};

struct DecodeIq3s {
    using Block = BlockIq3s;
    static constexpr float kMult = 1.0f;
    static float d(const Block& b) { return h2f(b.d); }
    static Chunk chunk(const Block& b, int c) {
        const uint8_t* q = b.qs + 8 * c;
        const int h = b.qh[c];
        int idx[8];
        for (int i = 0; i < 8; ++i)
            idx[i] = q[i] | ((h >> i) & 1) << 8;
        return {grid32x8(kIq3sGrid, idx), byte_signs(le32(b.signs + 4 * c)),
                chunk_scale(2 * ((b.scales[c / 2] >> (4 * (c % 2))) & 0xF) + 1)};
    }
};

// IQ1: q = 8·grid ± 1 (grid bytes -1, 0, 1; sign_epi8 of 8 by the grid gives 8·grid).
inline __m256i iq1_values(__m256i grid, __m256i delta) {
    return _mm256_add_epi8(_mm256_sign_epi8(_mm256_set1_epi8(8), grid), delta);
}

inline long long delta_bytes(bool negative) {
    return negative ? -1ll : 0x0101010101010101ll;
}

struct DecodeIq1s {
    using Block = BlockIq1s;
    static constexpr float kMult = 0.125f;
    static float d(const Block& b) { return h2f(b.d); }
    static Chunk chunk(const Block& b, int c) {
        const uint8_t* q = b.qs + 4 * c;
        const int h = b.qh[c];
        const __m256i grid = grid64x4(kIq1sGrid, q[0] | (h & 7) << 8, q[1] | ((h >> 3) & 7) << 8,
                                      q[2] | ((h >> 6) & 7) << 8, q[3] | ((h >> 9) & 7) << 8);
        return signed_chunk(iq1_values(grid, _mm256_set1_epi64x(delta_bytes(h & 0x8000))),
                            chunk_scale(2 * ((h >> 12) & 7) + 1));
    }
};

struct DecodeIq1m {
    using Block = BlockIq1m;
    static constexpr float kMult = 0.125f;
    static uint16_t word(const Block& b, int i) {
        uint16_t w;
        __builtin_memcpy(&w, b.scales + 2 * i, 2);
        return w;
    }
    static float d(const Block& b) {
        return h2f(static_cast<uint16_t>((word(b, 0) >> 12) | ((word(b, 1) >> 8) & 0x00F0) |
                                         ((word(b, 2) >> 4) & 0x0F00) | (word(b, 3) & 0xF000)));
    }
    static Chunk chunk(const Block& b, int c) {
        const uint8_t* q = b.qs + 4 * c;
        const int h0 = b.qh[2 * c], h1 = b.qh[2 * c + 1];
        const __m256i grid = grid64x4(kIq1sGrid, q[0] | (h0 & 7) << 8, q[1] | ((h0 >> 4) & 7) << 8,
                                      q[2] | (h1 & 7) << 8, q[3] | ((h1 >> 4) & 7) << 8);
        const __m256i delta = _mm256_set_epi64x(delta_bytes(h1 & 0x80), delta_bytes(h1 & 0x08),
                                                delta_bytes(h0 & 0x80), delta_bytes(h0 & 0x08));
        const int sc = word(b, c / 2), shift = 6 * (c % 2);
        return signed_chunk(
            iq1_values(grid, delta),
            chunk_scales(2 * ((sc >> shift) & 7) + 1, 2 * ((sc >> (shift + 3)) & 7) + 1));
    }
};

// Two vectors of 16 int16 values -> 32 int8 in order (packs works per 128-bit lane).
inline __m256i pack16x2(__m256i a, __m256i b) {
    return _mm256_permute4x64_epi64(_mm256_packs_epi16(a, b), 0xD8);
}

// Base-3 digit (0..2) of each 16-bit lane's byte value v for per-lane multipliers pow3 (see
// tensor/iq_decode.cpp tq1_trit).
inline __m256i tq1_digits(__m256i v, __m256i pow3) {
    const __m256i t = _mm256_and_si256(_mm256_mullo_epi16(v, pow3), _mm256_set1_epi16(0xFF));
    return _mm256_srli_epi16(_mm256_mullo_epi16(t, _mm256_set1_epi16(3)), 8);
}

// The ternary types decode to codes 0..2 (value + 1) in mag[]; the row loop subtracts Σx through
// the Q8_K bsums.
struct DecodeTq1_0 {
    static constexpr float kMult = 1.0f;
    static void run(const void* block, Decoded* out) {
        const auto* b = static_cast<const BlockTq1_0*>(block);
        out->d = h2f(b->d);
        static constexpr short kPow3[5] = {1, 3, 9, 27, 81};
        const __m256i lo =
            _mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(b->qs)));
        const __m256i hi =
            _mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(b->qs + 16)));
        const __m256i tail =
            _mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(b->qs + 32)));
        for (int n = 0; n < 5; ++n) {
            const __m256i p = _mm256_set1_epi16(kPow3[n]);
            out->mag[n] = pack16x2(tq1_digits(lo, p), tq1_digits(hi, p));
        }
        __m256i t[5];
        for (int n = 0; n < 5; ++n)
            t[n] = tq1_digits(tail, _mm256_set1_epi16(kPow3[n]));
        // Values 240 + 4n + m: digit n of qh[m].
        const __m256i qh = _mm256_cvtepu8_epi16(_mm_set1_epi32(static_cast<int>(le32(b->qh))));
        const __m256i qh_digits =
            tq1_digits(qh, _mm256_setr_epi16(1, 1, 1, 1, 3, 3, 3, 3, 9, 9, 9, 9, 27, 27, 27, 27));
        out->mag[5] = pack16x2(t[0], t[1]);
        out->mag[6] = pack16x2(t[2], t[3]);
        out->mag[7] = pack16x2(t[4], qh_digits);
    }
};

struct DecodeTq2_0 {
    static constexpr float kMult = 1.0f;
    static void run(const void* block, Decoded* out) {
        const auto* b = static_cast<const BlockTq2_0*>(block);
        out->d = h2f(b->d);
        const __m256i m3 = _mm256_set1_epi8(3);
        for (int h = 0; h < 2; ++h) {
            const __m256i v = load256(b->qs + 32 * h);
            for (int l = 0; l < 4; ++l)
                out->mag[4 * h + l] = _mm256_and_si256(_mm256_srli_epi16(v, 2 * l), m3);
        }
    }
};

// ---- the row loops
// -------------------------------------------------------------------------------

// Ternary types: int32 lane sums of one block against one activation row, Σ_c codes·x per int16
// lane minus the Q8_K bsums (int16 lane p less bsums[p]), as ggml-cpu's AVX2 TQ kernels group it,
// so the float sums below round the same way.
inline __m256i ternary_isum(const Decoded& dec, const BlockQ8K& xb) {
    __m256i s16 = _mm256_setzero_si256();
    for (int c = 0; c < 8; ++c)
        s16 = _mm256_add_epi16(s16, _mm256_maddubs_epi16(dec.mag[c], load256(xb.qs + 32 * c)));
    s16 = _mm256_sub_epi16(s16, load256(xb.bsums));
    return _mm256_madd_epi16(s16, _mm256_set1_epi16(1));
}

template <typename Decoder, size_t BlockBytes, int NX>
void dot_ternary_n(int64_t k, const void* w, const void* x, size_t xs, float* out, int64_t os) {
    const auto* wb = static_cast<const uint8_t*>(w);
    const BlockQ8K* xr[NX];
    __m256 acc[NX];
    for (int j = 0; j < NX; ++j) {
        xr[j] = reinterpret_cast<const BlockQ8K*>(static_cast<const uint8_t*>(x) + j * xs);
        acc[j] = _mm256_setzero_ps();
    }
    Decoded dec;
    for (int64_t b = 0; b < k / kQKIq; ++b) {
        Decoder::run(wb + b * BlockBytes, &dec);
        for (int j = 0; j < NX; ++j) {
            const __m256 d = _mm256_set1_ps(dec.d * xr[j][b].d);
            const __m256 sum = _mm256_cvtepi32_ps(ternary_isum(dec, xr[j][b]));
            acc[j] = _mm256_add_ps(_mm256_mul_ps(sum, d), acc[j]); // ggml-cpu: multiply, then add
        }
    }
    for (int j = 0; j < NX; ++j)
        out[j * os] = hsum(acc[j]) * Decoder::kMult;
}

// Grid types: per super-block and activation row, int32 lanes of Σ_c scale·(|q|·sign(x, q)) per 4
// bytes of each chunk, each chunk decoded once for all NX rows.
template <typename Decoder, int NX>
void dot_grid_n(int64_t k, const void* w, const void* x, size_t xs, float* out, int64_t os) {
    const auto* wb = static_cast<const typename Decoder::Block*>(w);
    const BlockQ8K* xr[NX];
    __m256 acc[NX];
    for (int j = 0; j < NX; ++j) {
        xr[j] = reinterpret_cast<const BlockQ8K*>(static_cast<const uint8_t*>(x) + j * xs);
        acc[j] = _mm256_setzero_ps();
    }
    for (int64_t b = 0; b < k / kQKIq; ++b) {
        __m256i isum[NX];
        for (int j = 0; j < NX; ++j)
            isum[j] = _mm256_setzero_si256();
        for (int c = 0; c < 8; ++c) {
            const Chunk q = Decoder::chunk(wb[b], c);
            for (int j = 0; j < NX; ++j) {
                const __m256i xs_signed = _mm256_sign_epi8(load256(xr[j][b].qs + 32 * c), q.sign);
                const __m256i pairs = _mm256_maddubs_epi16(q.mag, xs_signed);
                isum[j] = _mm256_add_epi32(isum[j], _mm256_madd_epi16(pairs, q.scale));
            }
        }
        const float dw = Decoder::d(wb[b]);
        for (int j = 0; j < NX; ++j)
            acc[j] = _mm256_fmadd_ps(_mm256_set1_ps(dw * xr[j][b].d), _mm256_cvtepi32_ps(isum[j]),
                                     acc[j]);
    }
    for (int j = 0; j < NX; ++j)
        out[j * os] = hsum(acc[j]) * Decoder::kMult;
}

template <typename Decoder, size_t BlockBytes>
void dot_any(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    switch (nx) {
    case 1:
        return dot_ternary_n<Decoder, BlockBytes, 1>(k, w, x, xs, out, os);
    case 2:
        return dot_ternary_n<Decoder, BlockBytes, 2>(k, w, x, xs, out, os);
    case 3:
        return dot_ternary_n<Decoder, BlockBytes, 3>(k, w, x, xs, out, os);
    default:
        return dot_ternary_n<Decoder, BlockBytes, 4>(k, w, x, xs, out, os);
    }
}

template <typename Decoder>
void dot_grid(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    switch (nx) {
    case 1:
        return dot_grid_n<Decoder, 1>(k, w, x, xs, out, os);
    case 2:
        return dot_grid_n<Decoder, 2>(k, w, x, xs, out, os);
    case 3:
        return dot_grid_n<Decoder, 3>(k, w, x, xs, out, os);
    default:
        return dot_grid_n<Decoder, 4>(k, w, x, xs, out, os);
    }
}

} // namespace

void dot_iq2_xxs(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out,
                 int64_t os) {
    dot_grid<DecodeIq2xxs>(k, w, x, xs, nx, out, os);
}
void dot_iq2_xs(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out,
                int64_t os) {
    dot_grid<DecodeIq2xs>(k, w, x, xs, nx, out, os);
}
void dot_iq2_s(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    dot_grid<DecodeIq2s>(k, w, x, xs, nx, out, os);
}
void dot_iq3_xxs(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out,
                 int64_t os) {
    dot_grid<DecodeIq3xxs>(k, w, x, xs, nx, out, os);
}
void dot_iq3_s(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    dot_grid<DecodeIq3s>(k, w, x, xs, nx, out, os);
}
void dot_iq1_s(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    dot_grid<DecodeIq1s>(k, w, x, xs, nx, out, os);
}
void dot_iq1_m(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    dot_grid<DecodeIq1m>(k, w, x, xs, nx, out, os);
}
void dot_tq1_0(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    dot_any<DecodeTq1_0, sizeof(BlockTq1_0)>(k, w, x, xs, nx, out, os);
}
void dot_tq2_0(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    dot_any<DecodeTq2_0, sizeof(BlockTq2_0)>(k, w, x, xs, nx, out, os);
}

} // namespace folio::avx2
