// AVX2 + FMA mqa_rows (see mqa_rows.h). Rows go in batches of 8: per head, 8 dot products
// share each 8-float chunk of the query and are reduced together into one vector of 8 scores;
// the batch's maximum updates the running maximum once; the values are accumulated with the 8
// probabilities broadcast. The rows of the batch after next are prefetched, spread over the heads,
// since the selected rows lie anywhere in a cache far larger than the CPU caches.
#include "kernels/mqa_rows.h"
#include "kernels/row_prefetch.h"

#include "kernels/avx2_intrinsics.h"
#include "kernels/exp_avx2.h"

#include <immintrin.h>

#include <cmath>
#include <limits>

namespace folio::avx2 {

namespace {

constexpr int kBatch = 8;

// Lane j of the result = the sum of the 8 lanes of a[j].
inline __m256 sum_lanes8(const __m256* a) {
    const __m256 t0 = _mm256_hadd_ps(_mm256_hadd_ps(a[0], a[1]), _mm256_hadd_ps(a[2], a[3]));
    const __m256 t1 = _mm256_hadd_ps(_mm256_hadd_ps(a[4], a[5]), _mm256_hadd_ps(a[6], a[7]));
    return _mm256_add_ps(_mm256_permute2f128_ps(t0, t1, 0x20),
                         _mm256_permute2f128_ps(t0, t1, 0x31));
}

} // namespace

void mqa_rows(const MqaRowsQuery& q, const float* const* rows, int64_t n, const MqaRowsState& st) {
    if (q.dqk % 8 != 0 || q.dv % 8 != 0) {
        ref::mqa_rows(q, rows, n, st);
        return;
    }
    const int64_t dqk = q.dqk, dv = q.dv;
    const int64_t row_bytes = dqk * static_cast<int64_t>(sizeof(float));
    const __m256 scale = _mm256_set1_ps(q.scale);
    const __m256 neg_inf = _mm256_set1_ps(-std::numeric_limits<float>::infinity());
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    // The first two batches now; then, while batch b is computed, batch b + 2 a slice per head.
    const int64_t lines_per_row = (row_bytes + 63) / 64;
    prefetch_row_lines(rows, lines_per_row, 0, (n < 2 * kBatch ? n : 2 * kBatch) * lines_per_row);
    for (int64_t j0 = 0; j0 < n; j0 += kBatch) {
        const int nb = static_cast<int>(n - j0 < kBatch ? n - j0 : kBatch);
        const float* const* r = rows + j0;
        const int64_t ahead = n - j0 - 2 * kBatch; // rows of batch b + 2
        const int64_t ahead_lines = (ahead < kBatch ? ahead : kBatch) * lines_per_row;
        // Lanes of missing rows (a last, short batch) score -inf: probability 0.
        const __m256 valid = _mm256_castsi256_ps(_mm256_cmpgt_epi32(_mm256_set1_epi32(nb), lane));
        for (int64_t h = 0; h < q.n_heads; ++h) {
            if (ahead_lines > 0)
                prefetch_row_lines(r + 2 * kBatch, lines_per_row, ahead_lines * h / q.n_heads,
                                   ahead_lines * (h + 1) / q.n_heads);
            const float* qh = q.q + h * q.q_stride;
            __m256 acc[kBatch];
            for (int j = 0; j < kBatch; ++j)
                acc[j] = _mm256_setzero_ps();
            if (nb == kBatch) {
                for (int64_t c = 0; c < dqk; c += 8) {
                    const __m256 qv = _mm256_loadu_ps(qh + c);
                    for (int j = 0; j < kBatch; ++j)
                        acc[j] = _mm256_fmadd_ps(qv, _mm256_loadu_ps(r[j] + c), acc[j]);
                }
            } else {
                for (int64_t c = 0; c < dqk; c += 8) {
                    const __m256 qv = _mm256_loadu_ps(qh + c);
                    for (int j = 0; j < nb; ++j)
                        acc[j] = _mm256_fmadd_ps(qv, _mm256_loadu_ps(r[j] + c), acc[j]);
                }
            }
            const __m256 s =
                _mm256_blendv_ps(neg_inf, _mm256_mul_ps(sum_lanes8(acc), scale), valid);
            const float batch_max = hmax(s);
            float* o = st.o + h * dv;
            if (batch_max > st.m[h]) { // a new maximum: rescale what was summed so far
                const float f = std::exp(st.m[h] - batch_max);
                st.l[h] *= f;
                const __m256 fv = _mm256_set1_ps(f);
                for (int64_t c = 0; c < dv; c += 8)
                    _mm256_storeu_ps(o + c, _mm256_mul_ps(_mm256_loadu_ps(o + c), fv));
                st.m[h] = batch_max;
            }
            const __m256 p = exp_ps(_mm256_sub_ps(s, _mm256_set1_ps(st.m[h])));
            st.l[h] += hsum(p);
            alignas(32) float pj[kBatch];
            _mm256_store_ps(pj, p);
            __m256 pb[kBatch];
            for (int j = 0; j < nb; ++j)
                pb[j] = _mm256_set1_ps(pj[j]);
            // A full batch unrolled (a loop over nb compared and branched per row and chunk).
            if (nb == kBatch) {
                for (int64_t c = 0; c < dv; c += 8) {
                    __m256 a = _mm256_loadu_ps(o + c);
                    for (int j = 0; j < kBatch; ++j)
                        a = _mm256_fmadd_ps(pb[j], _mm256_loadu_ps(r[j] + c), a);
                    _mm256_storeu_ps(o + c, a);
                }
            } else {
                for (int64_t c = 0; c < dv; c += 8) {
                    __m256 a = _mm256_loadu_ps(o + c);
                    for (int j = 0; j < nb; ++j)
                        a = _mm256_fmadd_ps(pb[j], _mm256_loadu_ps(r[j] + c), a);
                    _mm256_storeu_ps(o + c, a);
                }
            }
        }
    }
}

} // namespace folio::avx2
