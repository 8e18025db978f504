// AVX-512 mqa_rows (see mqa_rows.h): the AVX2 kernel's scheme on 16 lanes, two heads at a time.
// Per pair of heads and batch of 8 rows, the 16 dot products share each 16-float chunk of the
// rows and are reduced together into one vector of 16 scores (a transposing add tree); each
// head's batch maximum updates its running maximum once; the values are accumulated with the
// probabilities broadcast, every row chunk loaded once for both heads. The rows of the batch
// after next are prefetched, spread over the heads.
//
// Deep in a document this is decode's attention: every cached row, read once per token, goes
// through all heads: 16 × (288 + 256) multiply-adds per row on the deepseek2 bench shape, so the
// kernel is bound by FMA throughput, not by reading the rows; two heads per pass load each row
// chunk once for both (timings: docs/NUMERICS.md). The flash tiles' GEMM (attention_flash.h)
// tried for the same decode was slower than both kernels.
//
// Compiled with -mavx512f -mavx512vl -mavx512bw (engine/CMakeLists.txt), entered only after the
// run-time CPU check. No inline functions from shared headers (see gemm_q8_0_avx512.cpp).
#include "kernels/mqa_rows.h"
#include "kernels/row_prefetch.h"

#include "kernels/avx512_intrinsics.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace folio::avx512 {

namespace {

constexpr int kBatch = 8;

// exp(x) on 16 lanes: the AVX2 kernels' exp_ps (kernels/exp_avx2.h) step for step: Cody-Waite
// reduction, the Cephes expf polynomial, 2^n through the exponent bits; below -87.3 exactly 0.
inline __m512 exp16(__m512 x) {
    const __m512 lo = _mm512_set1_ps(-87.3f);
    const __mmask16 underflow = _mm512_cmp_ps_mask(x, lo, _CMP_LT_OQ);
    x = _mm512_min_ps(_mm512_max_ps(x, lo), _mm512_set1_ps(88.0f));
    const __m512 n = _mm512_roundscale_ps(_mm512_mul_ps(x, _mm512_set1_ps(1.44269504088896341f)),
                                          _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    __m512 r = _mm512_fnmadd_ps(n, _mm512_set1_ps(0.693359375f), x);
    r = _mm512_fnmadd_ps(n, _mm512_set1_ps(-2.12194440e-4f), r);
    __m512 p = _mm512_set1_ps(1.9875691500e-4f);
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.3981999507e-3f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(8.3334519073e-3f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(4.1665795894e-2f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.6666665459e-1f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(5.0000001201e-1f));
    p = _mm512_fmadd_ps(p, _mm512_mul_ps(r, r), _mm512_add_ps(r, _mm512_set1_ps(1.0f)));
    const __m512i e =
        _mm512_slli_epi32(_mm512_add_epi32(_mm512_cvtps_epi32(n), _mm512_set1_epi32(127)), 23);
    return _mm512_maskz_mul_ps(static_cast<__mmask16>(~underflow), p, _mm512_castsi512_ps(e));
}

// Lane j of the result = the sum of the 16 lanes of a[j]: adds of interleaved pairs, then of
// 128-bit lanes, 15 vectors folded in 4 levels.
inline __m512 sum_lanes16(const __m512* a) {
    __m512 x[8], y[4];
    for (int i = 0; i < 8; ++i) // per 128-bit lane: [A0+A2, B0+B2, A1+A3, B1+B3]
        x[i] = _mm512_add_ps(_mm512_unpacklo_ps(a[2 * i], a[2 * i + 1]),
                             _mm512_unpackhi_ps(a[2 * i], a[2 * i + 1]));
    for (int i = 0; i < 4; ++i) // per 128-bit lane: rows 4i .. 4i+3, each over that lane
        y[i] = _mm512_add_ps(_mm512_shuffle_ps(x[2 * i], x[2 * i + 1], _MM_SHUFFLE(1, 0, 1, 0)),
                             _mm512_shuffle_ps(x[2 * i], x[2 * i + 1], _MM_SHUFFLE(3, 2, 3, 2)));
    // 128-bit lanes: [y0 lanes 0+1, y0 lanes 2+3, y1 lanes 0+1, y1 lanes 2+3], then once more.
    const __m512 z0 = _mm512_add_ps(_mm512_shuffle_f32x4(y[0], y[1], _MM_SHUFFLE(2, 0, 2, 0)),
                                    _mm512_shuffle_f32x4(y[0], y[1], _MM_SHUFFLE(3, 1, 3, 1)));
    const __m512 z1 = _mm512_add_ps(_mm512_shuffle_f32x4(y[2], y[3], _MM_SHUFFLE(2, 0, 2, 0)),
                                    _mm512_shuffle_f32x4(y[2], y[3], _MM_SHUFFLE(3, 1, 3, 1)));
    return _mm512_add_ps(_mm512_shuffle_f32x4(z0, z1, _MM_SHUFFLE(2, 0, 2, 0)),
                         _mm512_shuffle_f32x4(z0, z1, _MM_SHUFFLE(3, 1, 3, 1)));
}

// Heads h .. h + NH - 1 (NH = 1 or 2) over one batch: rows r[0 .. kBatch), or the nb rows of a
// last, short batch when Full is false. Two heads at a time share every row load: 8 rows × 2 heads
// are the 16 dot products of one reduction, and the row pointers stay in registers (16 rows of
// one head did not: the pointers went through memory).
template <int NH, bool Full>
inline void heads_batch(const MqaRowsQuery& q, int64_t h, const float* const* r, int nb,
                        const MqaRowsState& st) {
    const int n = Full ? kBatch : nb;
    const float* q0 = q.q + h * q.q_stride;
    const float* q1 = q.q + (h + NH - 1) * q.q_stride;
    __m512 acc[16]; // head 0's rows in 0 .. 7, head 1's in 8 .. 15
    for (int j = 0; j < 16; ++j)
        acc[j] = _mm512_setzero_ps();
    for (int64_t c = 0; c < q.dqk; c += 16) {
        const __m512 qv0 = _mm512_loadu_ps(q0 + c);
        const __m512 qv1 = NH == 2 ? _mm512_loadu_ps(q1 + c) : qv0;
        for (int j = 0; j < n; ++j) {
            const __m512 k = _mm512_loadu_ps(r[j] + c);
            acc[j] = _mm512_fmadd_ps(qv0, k, acc[j]);
            if constexpr (NH == 2)
                acc[kBatch + j] = _mm512_fmadd_ps(qv1, k, acc[kBatch + j]);
        }
    }
    // Lanes of missing rows (a short batch, or the absent second head) score -inf.
    const unsigned rows_mask = Full ? 0xFFu : (1u << nb) - 1;
    const auto valid = static_cast<__mmask16>(rows_mask | (NH == 2 ? rows_mask << 8 : 0u));
    const __m512 neg_inf = _mm512_set1_ps(-std::numeric_limits<float>::infinity());
    const __m512 s = _mm512_mask_mul_ps(neg_inf, valid, sum_lanes16(acc), _mm512_set1_ps(q.scale));
    // Each head's batch maximum (lanes 0 .. 7 and 8 .. 15) updates its running maximum.
    for (int i = 0; i < NH; ++i) {
        const int64_t hh = h + i;
        const float m_new =
            _mm512_reduce_max_ps(_mm512_mask_mov_ps(neg_inf, __mmask16(0xFFu << (8 * i)), s));
        if (m_new > st.m[hh]) { // a new maximum: rescale what was summed so far
            const float f = std::exp(st.m[hh] - m_new);
            st.l[hh] *= f;
            float* o = st.o + hh * q.dv;
            const __m512 fv = _mm512_set1_ps(f);
            for (int64_t c = 0; c < q.dv; c += 16)
                _mm512_storeu_ps(o + c, _mm512_mul_ps(_mm512_loadu_ps(o + c), fv));
            st.m[hh] = m_new;
        }
    }
    const __m512 m =
        _mm512_mask_mov_ps(_mm512_set1_ps(st.m[h]), 0xFF00, _mm512_set1_ps(st.m[h + NH - 1]));
    const __m512 p = exp16(_mm512_sub_ps(s, m));
    st.l[h] += _mm512_mask_reduce_add_ps(0x00FF, p);
    if constexpr (NH == 2)
        st.l[h + 1] += _mm512_mask_reduce_add_ps(0xFF00, p);
    alignas(64) float pj[16];
    _mm512_store_ps(pj, p);
    __m512 pb[2][kBatch];
    for (int i = 0; i < NH; ++i)
        for (int j = 0; j < n; ++j)
            pb[i][j] = _mm512_set1_ps(pj[i * kBatch + j]);
    float* o0 = st.o + h * q.dv;
    float* o1 = st.o + (h + NH - 1) * q.dv;
    for (int64_t c = 0; c < q.dv; c += 16) {
        __m512 a0 = _mm512_loadu_ps(o0 + c);
        __m512 a1 = NH == 2 ? _mm512_loadu_ps(o1 + c) : a0;
        for (int j = 0; j < n; ++j) {
            const __m512 v = _mm512_loadu_ps(r[j] + c);
            a0 = _mm512_fmadd_ps(pb[0][j], v, a0);
            if constexpr (NH == 2)
                a1 = _mm512_fmadd_ps(pb[1][j], v, a1);
        }
        _mm512_storeu_ps(o0 + c, a0);
        if constexpr (NH == 2)
            _mm512_storeu_ps(o1 + c, a1);
    }
}

template <int NH>
inline void heads(const MqaRowsQuery& q, int64_t h, const float* const* r, int nb,
                  const MqaRowsState& st) {
    if (nb == kBatch)
        heads_batch<NH, true>(q, h, r, nb, st);
    else
        heads_batch<NH, false>(q, h, r, nb, st);
}

} // namespace

void mqa_rows(const MqaRowsQuery& q, const float* const* rows, int64_t n, const MqaRowsState& st) {
    if (q.dqk % 16 != 0 || q.dv % 16 != 0) {
        avx2::mqa_rows(q, rows, n, st);
        return;
    }
    const int64_t lines_per_row = (q.dqk * static_cast<int64_t>(sizeof(float)) + 63) / 64;
    // The first two batches now; then, while batch b is computed, batch b + 2 a slice per head.
    prefetch_row_lines(rows, lines_per_row, 0, (n < 2 * kBatch ? n : 2 * kBatch) * lines_per_row);
    for (int64_t j0 = 0; j0 < n; j0 += kBatch) {
        const int nb = static_cast<int>(n - j0 < kBatch ? n - j0 : kBatch);
        const float* const* r = rows + j0;
        const int64_t ahead = n - j0 - 2 * kBatch; // rows of batch b + 2
        const int64_t ahead_lines = (ahead < kBatch ? ahead : kBatch) * lines_per_row;
        for (int64_t h = 0; h < q.n_heads; h += 2) {
            if (ahead_lines > 0)
                prefetch_row_lines(r + 2 * kBatch, lines_per_row, ahead_lines * h / q.n_heads,
                                   ahead_lines * std::min(h + 2, q.n_heads) / q.n_heads);
            if (h + 1 < q.n_heads)
                heads<2>(q, h, r, nb, st);
            else
                heads<1>(q, h, r, nb, st);
        }
    }
}

} // namespace folio::avx512
