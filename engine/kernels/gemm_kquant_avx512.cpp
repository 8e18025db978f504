// AVX-512 VNNI kernel of the K-quant prefill GEMM (layouts and arithmetic: kernels/gemm_kquant.h).
//
// Register tile: RQ quads of 4 weight rows × TT tokens, as the Q8_0 GEMM (gemm_q8_0_avx512.cpp).
// Per group of 4 sub-blocks and step q = 0 .. L/4-1, one 512-bit load of a quad's unpacked
// weights (4 rows × 4 sub-blocks × 4 bytes) meets a 128-bit broadcast of each token's 4 × 4
// activation bytes; after L/4 vpdpbusd each int32 lane is one exact sub-block sum S_j. Then per
// tile entry one convert and one FMA apply the sub-block scale (and for L = 32 one more the min),
// and once per super-block one FMA applies d_x.
//
// Compiled with -mavx512f -mavx512vl -mavx512bw -mavx512vnni (engine/CMakeLists.txt), entered only
// when gemm_kquant_available(). No inline functions from shared headers (see gemm_q8_0_avx512.cpp).
#include "kernels/gemm_kquant.h"

#include "kernels/avx512_intrinsics.h"

namespace folio::avx512 {

namespace {

constexpr int kRQ = 2;              // quads (of 4 rows) per register tile
constexpr int kTT = 4;              // tokens per register tile (= kGemmTokenPad)
constexpr int64_t kTokenBlock = 64; // tokens whose float accumulators stay in L1
constexpr int64_t kSbPerSlice = 4;  // super-blocks per K slice (the chunk's slice stays in L1)
static_assert(kTT == kGemmTokenPad && kGemmRows % (4 * kRQ) == 0);

inline __m512i bcast128(const uint8_t* p) {
    return _mm512_broadcast_i32x4(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
}

// Adds super-blocks [s0, s1) of the RQ quads at w (wq_stride bytes apart) against tokens
// x .. x+3 (xs bytes apart) to the float accumulators in acc_mem (16 lanes per row quad and
// token; in memory between calls so the caller can slice K: each lane still sees its
// super-blocks in order).
template <int L, bool kMins, int RQ>
void accumulate(int64_t s0, int64_t s1, const uint8_t* w, size_t wq_stride, const uint8_t* x,
                size_t xs, float* acc_mem) {
    constexpr int kSteps = L / 4, kGroups = 64 / L;
    // kMins: the dmin·m_j·B_j term in float (Q4_K, Q5_K); else the integer sums start at
    // −offset·B_j (Q6_K, IQ4_XS).
    constexpr size_t kWsb = kquant_weight_sb_bytes(L), kXsb = kquant_act_sb_bytes(L);
    __m512 acc[RQ][kTT];
    for (int r = 0; r < RQ; ++r)
        for (int t = 0; t < kTT; ++t)
            acc[r][t] = _mm512_load_ps(acc_mem + 16 * (r * kTT + t));
    const uint8_t* ws = w + s0 * kWsb;
    const uint8_t* xsb = x + s0 * kXsb;
    for (int64_t s = s0; s < s1; ++s, ws += kWsb, xsb += kXsb) {
        __m512 u[RQ][kTT];
        for (int r = 0; r < RQ; ++r)
            for (int t = 0; t < kTT; ++t)
                u[r][t] = _mm512_setzero_ps();
        for (int g = 0; g < kGroups; ++g) {
            // Offset forms: the sums start at −offset·B_j (Q6_K's q − 32, IQ4_XS's v + 128).
            __m512i isum[RQ][kTT];
            for (int t = 0; t < kTT; ++t) {
                const __m512i start =
                    kMins ? _mm512_setzero_si512() : bcast128(xsb + t * xs + 256 + 16 * g);
                for (int r = 0; r < RQ; ++r)
                    isum[r][t] = start;
            }
#pragma GCC unroll 8
            for (int q = 0; q < kSteps; ++q) {
                __m512i xv[kTT];
                for (int t = 0; t < kTT; ++t)
                    xv[t] = bcast128(xsb + t * xs + 16 * (kSteps * g + q));
                for (int r = 0; r < RQ; ++r) {
                    const __m512i wv =
                        _mm512_loadu_si512(ws + r * wq_stride + 64 * (kSteps * g + q));
                    for (int t = 0; t < kTT; ++t)
                        isum[r][t] = _mm512_dpbusd_epi32(isum[r][t], wv, xv[t]);
                }
            }
            for (int r = 0; r < RQ; ++r) {
                const auto* scales = reinterpret_cast<const float*>(ws + r * wq_stride + 1024);
                const __m512 dsc = _mm512_loadu_ps(scales + 16 * g);
                for (int t = 0; t < kTT; ++t)
                    u[r][t] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(isum[r][t]), dsc, u[r][t]);
                if constexpr (kMins) {
                    const __m512 dmn = _mm512_loadu_ps(scales + 16 * (kGroups + g));
                    for (int t = 0; t < kTT; ++t) {
                        const __m512 bsum = _mm512_broadcast_f32x4(_mm_loadu_ps(
                            reinterpret_cast<const float*>(xsb + t * xs + 256 + 16 * g)));
                        u[r][t] = _mm512_fnmadd_ps(dmn, bsum, u[r][t]);
                    }
                }
            }
        }
        for (int t = 0; t < kTT; ++t) {
            const __m512 dx =
                _mm512_set1_ps(*reinterpret_cast<const float*>(xsb + t * xs + 256 + 16 * kGroups));
            for (int r = 0; r < RQ; ++r)
                acc[r][t] = _mm512_fmadd_ps(dx, u[r][t], acc[r][t]);
        }
    }
    for (int r = 0; r < RQ; ++r)
        for (int t = 0; t < kTT; ++t)
            _mm512_store_ps(acc_mem + 16 * (r * kTT + t), acc[r][t]);
}

// res[t][4·rq + r] = (acc_0 + acc_2) + (acc_1 + acc_3) of row 4·rq + r's four lanes.
template <int RQ> void finish(const float* acc_mem, float (&res)[kTT][4 * RQ]) {
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
}

template <int L, bool kMins>
void chunk(int64_t k, const uint8_t* w_packed, int64_t rows_valid, const uint8_t* x_packed,
           size_t x_stride, int64_t n_tokens, float* y, int64_t y_stride) {
    constexpr size_t kWsb = kquant_weight_sb_bytes(L);
    const int64_t nsb = k / 256;
    const size_t wq_stride = static_cast<size_t>(nsb) * kWsb;
    constexpr int kTileRows = 4 * kRQ;
    constexpr int64_t kPairs = kGemmRows / kTileRows;
    const int64_t pairs = (rows_valid + kTileRows - 1) / kTileRows;
    alignas(64) float acc[kTokenBlock / kTT][kPairs][kRQ * kTT * 16];
    for (int64_t tb0 = 0; tb0 < n_tokens; tb0 += kTokenBlock) {
        const int64_t ntb = n_tokens - tb0 < kTokenBlock ? n_tokens - tb0 : kTokenBlock;
        const int64_t quads = (ntb + kTT - 1) / kTT;
        for (int64_t tq = 0; tq < quads; ++tq)
            for (int64_t p = 0; p < pairs; ++p)
                for (float& v : acc[tq][p])
                    v = 0.0f;
        for (int64_t s0 = 0; s0 < nsb; s0 += kSbPerSlice) {
            const int64_t s1 = nsb - s0 < kSbPerSlice ? nsb : s0 + kSbPerSlice;
            for (int64_t tq = 0; tq < quads; ++tq)
                for (int64_t p = 0; p < pairs; ++p)
                    accumulate<L, kMins, kRQ>(s0, s1, w_packed + p * kRQ * wq_stride, wq_stride,
                                              x_packed + (tb0 + tq * kTT) * x_stride, x_stride,
                                              acc[tq][p]);
        }
        for (int64_t tq = 0; tq < quads; ++tq)
            for (int64_t p = 0; p < pairs; ++p) {
                float res[kTT][kTileRows];
                finish<kRQ>(acc[tq][p], res);
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

void gemm_kquant_chunk_l32(int64_t k, const uint8_t* w_packed, int64_t rows_valid,
                           const uint8_t* x_packed, size_t x_stride, int64_t n_tokens, float* y,
                           int64_t y_stride) {
    chunk<32, true>(k, w_packed, rows_valid, x_packed, x_stride, n_tokens, y, y_stride);
}

void gemm_kquant_chunk_l16(int64_t k, const uint8_t* w_packed, int64_t rows_valid,
                           const uint8_t* x_packed, size_t x_stride, int64_t n_tokens, float* y,
                           int64_t y_stride) {
    chunk<16, false>(k, w_packed, rows_valid, x_packed, x_stride, n_tokens, y, y_stride);
}

void gemm_kquant_chunk_l32_offset(int64_t k, const uint8_t* w_packed, int64_t rows_valid,
                                  const uint8_t* x_packed, size_t x_stride, int64_t n_tokens,
                                  float* y, int64_t y_stride) {
    chunk<32, false>(k, w_packed, rows_valid, x_packed, x_stride, n_tokens, y, y_stride);
}

} // namespace folio::avx512
