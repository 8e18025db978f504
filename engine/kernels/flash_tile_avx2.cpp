// AVX2 softmax step of flash attention (kernels/flash_tile.h): the maximum, the exponentials
// (exp_avx2.h) and their sum 8 scores at a time. Compiled with -mavx2 -mfma, entered only when
// avx2_kernels_available().
#include "kernels/flash_tile.h"

#include "kernels/avx2_intrinsics.h"
#include "kernels/exp_avx2.h"

#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace folio::avx2 {

namespace {} // namespace

void flash_tile(const FlashTile& t) {
    const __m256 vscale = _mm256_set1_ps(t.scale);
    for (int64_t r = 0; r < t.rows; ++r) {
        float* s = t.s + r * t.ld;
        const int64_t vis = std::clamp<int64_t>(t.vis0 + r / t.rows_per_query, 0, t.nk);
        if (vis == 0) {
            std::fill(s, s + t.nk, 0.0f);
            t.rescale[r] = 1.0f;
            continue;
        }
        int64_t j = 0;
        __m256 vmax = _mm256_set1_ps(-std::numeric_limits<float>::infinity());
        for (; j + 8 <= vis; j += 8)
            vmax = _mm256_max_ps(vmax, _mm256_mul_ps(_mm256_loadu_ps(s + j), vscale));
        float mt = hmax(vmax);
        for (; j < vis; ++j)
            mt = std::max(mt, s[j] * t.scale);
        const float m_new = std::max(t.m[r], mt);
        const float f = std::exp(t.m[r] - m_new);
        const __m256 vm = _mm256_set1_ps(m_new);
        __m256 vsum = _mm256_setzero_ps();
        j = 0;
        for (; j + 8 <= vis; j += 8) {
            const __m256 p = exp_ps(_mm256_fmsub_ps(_mm256_loadu_ps(s + j), vscale, vm));
            _mm256_storeu_ps(s + j, p);
            vsum = _mm256_add_ps(vsum, p);
        }
        float sum = hsum(vsum);
        for (; j < vis; ++j) {
            s[j] = std::exp(s[j] * t.scale - m_new);
            sum += s[j];
        }
        std::fill(s + vis, s + t.nk, 0.0f);
        t.l[r] = t.l[r] * f + sum;
        t.m[r] = m_new;
        t.rescale[r] = f;
    }
}

} // namespace folio::avx2
