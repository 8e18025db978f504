// AVX2 kernel of the Q8_0 prefill GEMM, for CPUs without AVX-512 VNNI (layouts and arithmetic:
// kernels/gemm_q8_0.h, "AVX2 form").
//
// Register tile: one duo of 2 weight rows × kTT = 4 tokens. Per group of 4 blocks and q = 0..7,
// one 256-bit load of the duo's packed weights (2 rows × 4 blocks × 4 bytes) meets a 128-bit
// broadcast of each token's 4 × 4 activation bytes. vpmaddubsw multiplies unsigned by signed
// bytes, so the weights enter as |w| (vpsignb w, w: -128 reads as the unsigned 128) and the
// activations as x with w's sign (vpsignb x, w; |x| <= 127 in a Q8_0 activation row); vpmaddwd
// against ones adds the pairs into the 4-product int32 sum of each (row, block) lane, with no
// int16 overflow (2 · 128 · 127 < 2^15). After the 8 steps each lane is one block's exact Σ w·x.
// Then per tile entry one convert, one d_w·d_x product and one FMA into the float accumulator,
// whose 4 lanes per row are the AVX2 vec_dot kernel's 4 accumulators: the results equal the
// reference (kernels/reference/gemm_ref.cpp) and the AVX2 vec_dot bit for bit.
//
// Compiled with -mavx2 -mfma -mf16c (engine/CMakeLists.txt), entered only when
// gemm_q8_0_available() on a CPU without the AVX-512 VNNI path. No inline functions with external
// linkage from shared headers (see gemm_q8_0_avx512.cpp).
#include "kernels/avx2_intrinsics.h"
#include "kernels/gemm_avx2_tile.h"
#include "kernels/gemm_q8_0.h"
#include "tensor/quant_blocks.h"
#include "tensor/quant_blocks_more.h"

namespace folio::avx2 {

namespace {

constexpr int kTT = kDuoTokens;
constexpr int64_t kGroupsPerSlice = 4; // groups of 4 blocks per K slice: 9 KB of packed weights

// The exact int32 block sums of one group for a duo against kTT tokens: lane 4r + i of isum[t] =
// Σ w·x of the duo's row r and block i of the group.
inline void group_sums(const uint8_t* wg, const uint8_t* xg, size_t xs, __m256i (&isum)[kTT]) {
    for (int t = 0; t < kTT; ++t)
        isum[t] = _mm256_setzero_si256();
    for (int q = 0; q < 8; ++q) {
        const __m256i w = load256(wg + 32 * q);
        const __m256i aw = _mm256_sign_epi8(w, w);
        for (int t = 0; t < kTT; ++t) {
            isum[t] = _mm256_add_epi32(
                isum[t], dot_u8_i8(aw, _mm256_sign_epi8(bcast128(xg + t * xs + 16 * q), w)));
            pin(isum[t]);
        }
    }
}

// d_w·d_x for every lane of the duo's group against token t (fp32 scales in both packs).
inline __m256 scale_products(const uint8_t* wg, const uint8_t* xg_t) {
    const __m256 dw = _mm256_loadu_ps(reinterpret_cast<const float*>(wg + 8 * 32));
    const __m256 dx = _mm256_broadcast_ps(reinterpret_cast<const __m128*>(xg_t + 144));
    return _mm256_mul_ps(dw, dx);
}

// Adds groups [g0, g1) of the duo at w against tokens x .. x+3 to the float accumulators
// acc_mem[8·t ..] (kept in memory between calls so the caller can slice K: each lane still sees
// its groups in order).
void accumulate(int64_t g0, int64_t g1, const uint8_t* w, const uint8_t* x, size_t xs,
                float* acc_mem) {
    __m256 acc[kTT];
    for (int t = 0; t < kTT; ++t)
        acc[t] = _mm256_load_ps(acc_mem + 8 * t);
    const uint8_t* wg = w + g0 * kGemmAvx2WeightGroupBytes;
    const uint8_t* xg = x + g0 * kGemmActGroupBytes;
    for (int64_t g = g0; g < g1; ++g, wg += kGemmAvx2WeightGroupBytes, xg += kGemmActGroupBytes) {
        __m256i isum[kTT];
        group_sums(wg, xg, xs, isum);
        for (int t = 0; t < kTT; ++t)
            acc[t] = _mm256_fmadd_ps(scale_products(wg, xg + t * xs), _mm256_cvtepi32_ps(isum[t]),
                                     acc[t]);
    }
    for (int t = 0; t < kTT; ++t)
        _mm256_store_ps(acc_mem + 8 * t, acc[t]);
}

// res[t][r] from the accumulators of the full groups and, when K/32 mod 4 = rem > 0, the
// zero-padded last group at wg / xg.
void finish(const float* acc_mem, int rem, const uint8_t* wg, const uint8_t* xg, size_t xs,
            float (&res)[kTT][2]) {
    for (int t = 0; t < kTT; ++t)
        duo_sums(_mm256_load_ps(acc_mem + 8 * t), res[t]);
    // The last blocks: summed in order from 0 per row and token, then added (also when there
    // are none: -0 + 0 is +0), as the AVX2 kernel's tail loop.
    float tails[kTT][2] = {};
    if (rem > 0) {
        __m256i isum[kTT];
        group_sums(wg, xg, xs, isum);
        for (int t = 0; t < kTT; ++t) {
            alignas(32) float d[8];
            alignas(32) int32_t s[8];
            _mm256_store_ps(d, scale_products(wg, xg + t * xs));
            _mm256_store_si256(reinterpret_cast<__m256i*>(s), isum[t]);
            for (int r = 0; r < 2; ++r)
                for (int i = 0; i < rem; ++i)
                    tails[t][r] =
                        __builtin_fmaf(d[4 * r + i], static_cast<float>(s[4 * r + i]), tails[t][r]);
        }
    }
    for (int t = 0; t < kTT; ++t)
        for (int r = 0; r < 2; ++r)
            res[t][r] = res[t][r] + tails[t][r];
}

// The 8 × 8 transpose of 32-bit lanes: out[q] lane j = in[j] lane q.
inline void transpose8x8_epi32(const __m256i (&in)[8], __m256i (&out)[8]) {
    __m256i t[8], u[8];
    for (int i = 0; i < 4; ++i) {
        t[2 * i] = _mm256_unpacklo_epi32(in[2 * i], in[2 * i + 1]);
        t[2 * i + 1] = _mm256_unpackhi_epi32(in[2 * i], in[2 * i + 1]);
    }
    for (int h = 0; h < 2; ++h) {                                         // h: rows 0..3, rows 4..7
        u[4 * h + 0] = _mm256_unpacklo_epi64(t[4 * h + 0], t[4 * h + 2]); // lanes 0 | 4
        u[4 * h + 1] = _mm256_unpackhi_epi64(t[4 * h + 0], t[4 * h + 2]); // lanes 1 | 5
        u[4 * h + 2] = _mm256_unpacklo_epi64(t[4 * h + 1], t[4 * h + 3]); // lanes 2 | 6
        u[4 * h + 3] = _mm256_unpackhi_epi64(t[4 * h + 1], t[4 * h + 3]); // lanes 3 | 7
    }
    for (int q = 0; q < 4; ++q) {
        out[q] = _mm256_permute2x128_si256(u[q], u[4 + q], 0x20);
        out[4 + q] = _mm256_permute2x128_si256(u[q], u[4 + q], 0x31);
    }
}

} // namespace

void gemm_pack_q8_0_weights(DType type, const uint8_t* const rows[kGemmRows], int64_t k,
                            uint8_t* dst) {
    // The 16-entry value tables of the nibble formats (Q4_0: q − 8; tensor/quant_blocks*.h
    // kIq4nlValues, kMxfp4Values), decoded with one vpshufb per block; Q5_0 through its scalar
    // unpacker.
    alignas(16) int8_t table[16];
    for (int i = 0; i < 16; ++i)
        table[i] = type == DType::IQ4_NL  ? kIq4nlValues[i]
                   : type == DType::MXFP4 ? kMxfp4Values[i]
                                          : static_cast<int8_t>(i - 8);
    const __m256i values =
        _mm256_broadcastsi128_si256(_mm_load_si128(reinterpret_cast<const __m128i*>(table)));
    const __m256i m4 = _mm256_set1_epi8(0x0F);
    // Block b of row as 32 int8 values and its fp32 scale.
    auto block = [&](const uint8_t* row, int64_t b, float* d) -> __m256i {
        const uint8_t* qs;
        switch (type) {
        case DType::Q8_0: {
            const auto* blk = reinterpret_cast<const BlockQ8_0*>(row) + b;
            *d = h2f(blk->d);
            return load256(blk->qs);
        }
        case DType::Q4_0: {
            const auto* blk = reinterpret_cast<const BlockQ4_0*>(row) + b;
            *d = h2f(blk->d);
            qs = blk->qs;
            break;
        }
        case DType::IQ4_NL: {
            const auto* blk = reinterpret_cast<const BlockIQ4NL*>(row) + b;
            *d = h2f(blk->d);
            qs = blk->qs;
            break;
        }
        case DType::MXFP4: {
            const auto* blk = reinterpret_cast<const BlockMxfp4*>(row) + b;
            *d = e8m0_to_fp32_half(blk->e); // the bf16 scale of gemm_q8_0_bf16_scales, as fp32
            qs = blk->qs;
            break;
        }
        default: {
            BlockQ8_0 blk;
            gemm_block_as_q8_0(type)(row, b, &blk);
            *d = h2f(blk.d);
            return load256(blk.qs);
        }
        }
        // Low nibbles are values 0..15, high nibbles 16..31.
        const __m128i q = _mm_loadu_si128(reinterpret_cast<const __m128i*>(qs));
        const __m256i idx = _mm256_and_si256(
            _mm256_inserti128_si256(_mm256_castsi128_si256(q), _mm_srli_epi16(q, 4), 1), m4);
        return _mm256_shuffle_epi8(values, idx);
    };
    const int64_t nb = k / 32, ng = gemm_groups(k);
    for (int duo = 0; duo < kDuos; ++duo)
        for (int64_t g = 0; g < ng; ++g, dst += kGemmAvx2WeightGroupBytes) {
            __m256i v[8], out[8];
            alignas(32) float d[8];
            for (int r = 0; r < 2; ++r) {
                const uint8_t* row = rows[2 * duo + r];
                for (int i = 0; i < 4; ++i) {
                    const int64_t b = 4 * g + i;
                    const int j = 4 * r + i;
                    if (row == nullptr || b >= nb) {
                        v[j] = _mm256_setzero_si256();
                        d[j] = 0.0f;
                    } else
                        v[j] = block(row, b, &d[j]);
                }
            }
            transpose8x8_epi32(v, out);
            for (int q = 0; q < 8; ++q)
                _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + 32 * q), out[q]);
            _mm256_storeu_ps(reinterpret_cast<float*>(dst + 8 * 32), _mm256_load_ps(d));
        }
}

void gemm_q8_0_chunk(int64_t k, const uint8_t* w_packed, int64_t rows_valid,
                     const uint8_t* x_packed, size_t x_stride, int64_t n_tokens, float* y,
                     int64_t y_stride) {
    const int64_t nb = k / 32, ng_full = nb / 4;
    const int rem = static_cast<int>(nb % 4);
    const size_t duo_stride = static_cast<size_t>(gemm_groups(k)) * kGemmAvx2WeightGroupBytes;
    duo_chunk(
        ng_full, kGroupsPerSlice, rows_valid, n_tokens, y, y_stride,
        [&](int64_t g0, int64_t g1, int64_t p, int64_t t0, float* acc) {
            accumulate(g0, g1, w_packed + p * duo_stride, x_packed + t0 * x_stride, x_stride, acc);
        },
        [&](int64_t p, int64_t t0, const float* acc, float(&res)[kTT][2]) {
            finish(acc, rem, w_packed + p * duo_stride + ng_full * kGemmAvx2WeightGroupBytes,
                   x_packed + t0 * x_stride + ng_full * kGemmActGroupBytes, x_stride, res);
        });
}

} // namespace folio::avx2
