// AVX-512 f32 GEMM (kernels/gemm_f32.h): a register tile of 12 rows × 32 columns (24 zmm
// accumulators, 2 for the panel row, 1 broadcast of 32), one FMA pair per row and value of k.
// Column tails use masked loads and stores. Compiled with -mavx512f (engine/CMakeLists.txt) and
// entered only through gemm_f32_kernel() after the run-time CPU check.
#include "kernels/gemm_f32.h"

#include "kernels/gemm_f32_blocked.h"

#include <immintrin.h>

namespace folio::avx512 {

namespace {

struct Tile {
    static constexpr int MR = 12, NR = 32;

    template <int R>
    static void tile(const float* a, int64_t lda, const float* panel, int64_t kc, float* c,
                     int64_t ldc, int nr, float alpha, bool acc) {
        __m512 c0[R], c1[R];
        for (int r = 0; r < R; ++r)
            c0[r] = c1[r] = _mm512_setzero_ps();
        for (int64_t p = 0; p < kc; ++p) {
            const __m512 b0 = _mm512_load_ps(panel + p * NR);
            const __m512 b1 = _mm512_load_ps(panel + p * NR + 16);
#pragma GCC unroll 12
            for (int r = 0; r < R; ++r) {
                const __m512 av = _mm512_set1_ps(a[r * lda + p]);
                c0[r] = _mm512_fmadd_ps(av, b0, c0[r]);
                c1[r] = _mm512_fmadd_ps(av, b1, c1[r]);
            }
        }
        const __mmask16 m0 = nr >= 16 ? 0xffff : static_cast<__mmask16>((1u << nr) - 1);
        const __mmask16 m1 = nr <= 16 ? 0 : static_cast<__mmask16>((1u << (nr - 16)) - 1);
        const __m512 va = _mm512_set1_ps(alpha);
#pragma GCC unroll 12
        for (int r = 0; r < R; ++r) {
            float* cr = c + r * ldc;
            const __m512 o0 = acc ? _mm512_maskz_loadu_ps(m0, cr) : _mm512_setzero_ps();
            const __m512 o1 = acc ? _mm512_maskz_loadu_ps(m1, cr + 16) : _mm512_setzero_ps();
            _mm512_mask_storeu_ps(cr, m0, _mm512_fmadd_ps(c0[r], va, o0));
            _mm512_mask_storeu_ps(cr + 16, m1, _mm512_fmadd_ps(c1[r], va, o1));
        }
    }
};

} // namespace

void gemm_f32(const GemmF32& g) {
    gemm_f32_detail::gemm_blocked<Tile>(g);
}

} // namespace folio::avx512
