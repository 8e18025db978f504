// AVX-512 VNNI kernel of the Q8_0 prefill GEMM (layouts and arithmetic: kernels/gemm_q8_0.h).
//
// Register tile: RQ quads of 4 weight rows × TT tokens. Per group of 4 blocks and q = 0..7, one
// 512-bit load of a quad's packed weights (4 rows × 4 blocks × 4 bytes) meets a 128-bit broadcast
// of each token's 4 × 4 activation bytes: vpdpbusd adds the 4-product sums of all 16 (row, block)
// pairs at once. After the 8 steps each int32 lane is one block's exact Σ w·x (the accumulator
// starts at -128·Σx, cancelling the +128 that made the weights unsigned). Then per tile entry one
// convert, one d_w·d_x product and one FMA into the float accumulator, whose 4 lanes per row are
// exactly the AVX2 kernel's 4 accumulators.
//
// Compiled with -mavx512f -mavx512vl -mavx512bw -mavx512vnni (engine/CMakeLists.txt), entered only
// when gemm_q8_0_available(). Like the other SIMD files it uses no inline functions from shared
// headers (std::min ...), so no AVX-512 copy of one can be picked by the linker for other code.
#include "kernels/gemm_q8_0.h"

#include "kernels/avx512_intrinsics.h"

namespace folio::avx512 {

namespace {

constexpr int kRQ = 2;              // quads (of 4 rows) per register tile
constexpr int kTT = 4;              // tokens per register tile (= kGemmTokenPad)
constexpr int64_t kTokenBlock = 64; // tokens whose float accumulators stay in L1
#ifndef FOLIO_GEMM_SLICE
#define FOLIO_GEMM_SLICE 8
#endif
constexpr int64_t kGroupsPerSlice = FOLIO_GEMM_SLICE; // groups of 4 blocks per K slice
static_assert(kTT == kGemmTokenPad && kGemmRows % (4 * kRQ) == 0);

inline __m512i bcast128(const uint8_t* p) {
    return _mm512_broadcast_i32x4(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
}

// The exact int32 block sums of one group for the RQ × kTT tile: lane 4r + i of isum[rq][t] =
// Σ w·x of row 4·rq + r and block i of the group.
template <int RQ>
inline void group_sums(const uint8_t* wg, size_t wq_stride, const uint8_t* xg, size_t xs,
                       __m512i (&isum)[RQ][kTT]) {
    for (int t = 0; t < kTT; ++t) {
        const __m512i corr = bcast128(xg + t * xs + 128);
        for (int r = 0; r < RQ; ++r)
            isum[r][t] = corr;
    }
#pragma GCC unroll 8
    for (int q = 0; q < 8; ++q) {
        __m512i xv[kTT];
        for (int t = 0; t < kTT; ++t)
            xv[t] = bcast128(xg + t * xs + 16 * q);
        for (int r = 0; r < RQ; ++r) {
            const __m512i wv = _mm512_loadu_si512(wg + r * wq_stride + 64 * q);
            for (int t = 0; t < kTT; ++t)
                isum[r][t] = _mm512_dpbusd_epi32(isum[r][t], wv, xv[t]);
        }
    }
}

// d_w·d_x for every lane of quad rq's group against token t. d_w is fp16, or bf16 (MXFP4's
// scales: widened to the top half of an fp32).
template <bool Bf16> inline __m512 scale_products(const uint8_t* wg, const uint8_t* xg_t) {
    const __m256i bits = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(wg + 8 * 64));
    const __m512 dw = Bf16 ? _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(bits), 16))
                           : _mm512_cvtph_ps(bits);
    const __m512 dx =
        _mm512_broadcast_f32x4(_mm_loadu_ps(reinterpret_cast<const float*>(xg_t + 144)));
    return _mm512_mul_ps(dw, dx);
}

// Adds groups [g0, g1) of the RQ quads at w (wq_stride bytes apart) against tokens x .. x+3 to
// the float accumulators acc[r][t] (16 lanes each, kept in memory between calls so the caller can
// block K: each lane still sees its groups in order).
template <int RQ, bool Bf16>
void accumulate(int64_t g0, int64_t g1, const uint8_t* w, size_t wq_stride, const uint8_t* x,
                size_t xs, float* acc_mem) {
    __m512 acc[RQ][kTT];
    for (int r = 0; r < RQ; ++r)
        for (int t = 0; t < kTT; ++t)
            acc[r][t] = _mm512_load_ps(acc_mem + 16 * (r * kTT + t));
    const uint8_t* wg = w + g0 * kGemmWeightGroupBytes;
    const uint8_t* xg = x + g0 * kGemmActGroupBytes;
    for (int64_t g = g0; g < g1; ++g, wg += kGemmWeightGroupBytes, xg += kGemmActGroupBytes) {
        __m512i isum[RQ][kTT];
        group_sums<RQ>(wg, wq_stride, xg, xs, isum);
        for (int r = 0; r < RQ; ++r)
            for (int t = 0; t < kTT; ++t)
                acc[r][t] = _mm512_fmadd_ps(scale_products<Bf16>(wg + r * wq_stride, xg + t * xs),
                                            _mm512_cvtepi32_ps(isum[r][t]), acc[r][t]);
    }
    for (int r = 0; r < RQ; ++r)
        for (int t = 0; t < kTT; ++t)
            _mm512_store_ps(acc_mem + 16 * (r * kTT + t), acc[r][t]);
}

// res[t][4·rq + r] from the accumulators of the full groups and, when K/32 mod 4 = rem > 0, the
// zero-padded last group at wg / xg (same strides as accumulate).
template <int RQ, bool Bf16>
void finish(const float* acc_mem, int rem, const uint8_t* wg, size_t wq_stride, const uint8_t* xg,
            size_t xs, float (&res)[kTT][4 * RQ]) {
    // (acc0 + acc2) + (acc1 + acc3) in lane 4r of each row's 4 lanes, as the AVX2 kernel's
    // movehl / movehdup reduction.
    for (int r = 0; r < RQ; ++r)
        for (int t = 0; t < kTT; ++t) {
            const __m512 a = _mm512_load_ps(acc_mem + 16 * (r * kTT + t));
            __m512 s = _mm512_add_ps(a, _mm512_permute_ps(a, 0x4E));
            s = _mm512_add_ps(s, _mm512_permute_ps(s, 0xB1));
            alignas(64) float lanes[16];
            _mm512_store_ps(lanes, s);
            for (int rr = 0; rr < 4; ++rr)
                res[t][4 * r + rr] = lanes[4 * rr];
        }
    // The last blocks: summed in order from 0 per row and token, then added, as the AVX2
    // kernel's tail loop.
    float tails[kTT][4 * RQ] = {};
    if (rem > 0) {
        __m512i isum[RQ][kTT];
        group_sums<RQ>(wg, wq_stride, xg, xs, isum);
        for (int r = 0; r < RQ; ++r)
            for (int t = 0; t < kTT; ++t) {
                alignas(64) float d[16];
                alignas(64) int32_t s[16];
                _mm512_store_ps(d, scale_products<Bf16>(wg + r * wq_stride, xg + t * xs));
                _mm512_store_si512(s, isum[r][t]);
                for (int rr = 0; rr < 4; ++rr) {
                    float tail = 0;
                    for (int i = 0; i < rem; ++i)
                        tail =
                            __builtin_fmaf(d[4 * rr + i], static_cast<float>(s[4 * rr + i]), tail);
                    tails[t][4 * r + rr] = tail;
                }
            }
    }
    for (int t = 0; t < kTT; ++t)
        for (int j = 0; j < 4 * RQ; ++j)
            res[t][j] = res[t][j] + tails[t][j];
}

template <bool Bf16>
void chunk(int64_t k, const uint8_t* w_packed, int64_t rows_valid, const uint8_t* x_packed,
           size_t x_stride, int64_t n_tokens, float* y, int64_t y_stride) {
    const int64_t nb = k / 32, ng_full = nb / 4;
    const int rem = static_cast<int>(nb % 4);
    const size_t wq_stride = static_cast<size_t>(gemm_groups(k)) * kGemmWeightGroupBytes;
    constexpr int kTileRows = 4 * kRQ;
    constexpr int64_t kPairs = kGemmRows / kTileRows;
    const int64_t pairs = (rows_valid + kTileRows - 1) / kTileRows;
    // Float accumulators of a block of kTokenBlock tokens × the chunk's rows, in L1.
    alignas(64) float acc[kTokenBlock / kTT][kPairs][kRQ * kTT * 16];
    for (int64_t tb0 = 0; tb0 < n_tokens; tb0 += kTokenBlock) {
        const int64_t ntb = n_tokens - tb0 < kTokenBlock ? n_tokens - tb0 : kTokenBlock;
        const int64_t quads = (ntb + kTT - 1) / kTT;
        for (int64_t tq = 0; tq < quads; ++tq)
            for (int64_t p = 0; p < pairs; ++p)
                for (float& v : acc[tq][p])
                    v = 0.0f;
        // K in slices of kGroupsPerSlice groups: the chunk's packed weights of one slice stay in
        // L1 while the token quads stream past.
        for (int64_t g0 = 0; g0 < ng_full; g0 += kGroupsPerSlice) {
            const int64_t g1 = ng_full - g0 < kGroupsPerSlice ? ng_full : g0 + kGroupsPerSlice;
            for (int64_t tq = 0; tq < quads; ++tq)
                for (int64_t p = 0; p < pairs; ++p)
                    accumulate<kRQ, Bf16>(g0, g1, w_packed + p * kRQ * wq_stride, wq_stride,
                                          x_packed + (tb0 + tq * kTT) * x_stride, x_stride,
                                          acc[tq][p]);
        }
        for (int64_t tq = 0; tq < quads; ++tq)
            for (int64_t p = 0; p < pairs; ++p) {
                float res[kTT][kTileRows];
                finish<kRQ, Bf16>(
                    acc[tq][p], rem,
                    w_packed + p * kRQ * wq_stride + ng_full * kGemmWeightGroupBytes, wq_stride,
                    x_packed + (tb0 + tq * kTT) * x_stride + ng_full * kGemmActGroupBytes, x_stride,
                    res);
                const int64_t t0 = tb0 + tq * kTT;
                const int64_t nt = n_tokens - t0 < kTT ? n_tokens - t0 : kTT;
                const int64_t r0 = p * kTileRows;
                const int64_t nr = rows_valid - r0 < kTileRows ? rows_valid - r0 : kTileRows;
                for (int64_t t = 0; t < nt; ++t)
                    for (int64_t r = 0; r < nr; ++r)
                        y[(t0 + t) * y_stride + r0 + r] = res[t][r];
            }
    }
}

} // namespace

void gemm_q8_0_chunk(int64_t k, const uint8_t* w_packed, int64_t rows_valid,
                     const uint8_t* x_packed, size_t x_stride, int64_t n_tokens, float* y,
                     int64_t y_stride) {
    chunk<false>(k, w_packed, rows_valid, x_packed, x_stride, n_tokens, y, y_stride);
}

void gemm_q8_0_chunk_bf16_scales(int64_t k, const uint8_t* w_packed, int64_t rows_valid,
                                 const uint8_t* x_packed, size_t x_stride, int64_t n_tokens,
                                 float* y, int64_t y_stride) {
    chunk<true>(k, w_packed, rows_valid, x_packed, x_stride, n_tokens, y, y_stride);
}

} // namespace folio::avx512
