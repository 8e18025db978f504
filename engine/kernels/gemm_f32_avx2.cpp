// AVX2+FMA f32 GEMM (kernels/gemm_f32.h): a register tile of 6 rows × 16 columns (12 ymm
// accumulators, 2 for the panel row, 1 broadcast of 16), one FMA pair per row and value of k.
// Column tails use maskload / maskstore. Compiled with -mavx2 -mfma, entered only when
// avx2_kernels_available().
#include "kernels/gemm_f32.h"

#include "kernels/gemm_f32_blocked.h"

#include <immintrin.h>

namespace folio::avx2 {

namespace {

// Lanes j with j0 + j < nr.
inline __m256i lane_mask(int j0, int nr) {
    const __m256i idx = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(nr - j0), idx);
}

struct Tile {
    static constexpr int MR = 6, NR = 16;

    template <int R>
    static void tile(const float* a, int64_t lda, const float* panel, int64_t kc, float* c,
                     int64_t ldc, int nr, float alpha, bool acc) {
        __m256 c0[R], c1[R];
        for (int r = 0; r < R; ++r)
            c0[r] = c1[r] = _mm256_setzero_ps();
        for (int64_t p = 0; p < kc; ++p) {
            const __m256 b0 = _mm256_load_ps(panel + p * NR);
            const __m256 b1 = _mm256_load_ps(panel + p * NR + 8);
#pragma GCC unroll 6
            for (int r = 0; r < R; ++r) {
                const __m256 av = _mm256_broadcast_ss(a + r * lda + p);
                c0[r] = _mm256_fmadd_ps(av, b0, c0[r]);
                c1[r] = _mm256_fmadd_ps(av, b1, c1[r]);
            }
        }
        const __m256 va = _mm256_set1_ps(alpha);
        if (nr == NR) {
            for (int r = 0; r < R; ++r) {
                float* cr = c + r * ldc;
                const __m256 o0 = acc ? _mm256_loadu_ps(cr) : _mm256_setzero_ps();
                const __m256 o1 = acc ? _mm256_loadu_ps(cr + 8) : _mm256_setzero_ps();
                _mm256_storeu_ps(cr, _mm256_fmadd_ps(c0[r], va, o0));
                _mm256_storeu_ps(cr + 8, _mm256_fmadd_ps(c1[r], va, o1));
            }
            return;
        }
        const __m256i m0 = lane_mask(0, nr), m1 = lane_mask(8, nr);
        for (int r = 0; r < R; ++r) {
            float* cr = c + r * ldc;
            const __m256 o0 = acc ? _mm256_maskload_ps(cr, m0) : _mm256_setzero_ps();
            const __m256 o1 = acc ? _mm256_maskload_ps(cr + 8, m1) : _mm256_setzero_ps();
            _mm256_maskstore_ps(cr, m0, _mm256_fmadd_ps(c0[r], va, o0));
            _mm256_maskstore_ps(cr + 8, m1, _mm256_fmadd_ps(c1[r], va, o1));
        }
    }
};

} // namespace

void gemm_f32(const GemmF32& g) {
    gemm_f32_detail::gemm_blocked<Tile>(g);
}

} // namespace folio::avx2
