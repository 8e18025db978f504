// The plain f32 matrix product (kernels/gemm_f32.h) and the kernel choice.
#include "kernels/gemm_f32.h"

#include "kernels/kernel_table.h"

namespace folio {

namespace ref {

void gemm_f32(const GemmF32& g) {
    for (int64_t i = 0; i < g.m; ++i) {
        const float* a = g.a + i * g.lda;
        float* c = g.c + i * g.ldc;
        for (int64_t j = 0; j < g.n; ++j) {
            float sum = 0.0f;
            for (int64_t p = 0; p < g.k; ++p)
                sum += a[p] * (g.b_transposed ? g.b[j * g.ldb + p] : g.b[p * g.ldb + j]);
            c[j] = g.alpha * sum + (g.accumulate ? c[j] : 0.0f);
        }
    }
}

} // namespace ref

GemmF32Fn gemm_f32_kernel(KernelPath path) {
#if defined(FOLIO_X86)
    if (path == KernelPath::Auto && avx512_vnni_kernels_available())
        return avx512::gemm_f32;
    if (path != KernelPath::Reference && avx2_kernels_available())
        return avx2::gemm_f32;
#else
    (void)path;
#endif
    return ref::gemm_f32;
}

namespace {

void run(KernelPath path, bool bt, int64_t m, int64_t n, int64_t k, const float* a, int64_t lda,
         const float* b, int64_t ldb, float* c, int64_t ldc, bool accumulate, float alpha) {
    GemmF32 g;
    g.m = m;
    g.n = n;
    g.k = k;
    g.a = a;
    g.lda = lda;
    g.b = b;
    g.ldb = ldb;
    g.b_transposed = bt;
    g.c = c;
    g.ldc = ldc;
    g.accumulate = accumulate;
    g.alpha = alpha;
    gemm_f32_kernel(path)(g);
}

} // namespace

void gemm_f32_abt(KernelPath path, int64_t m, int64_t n, int64_t k, const float* a, int64_t lda,
                  const float* b, int64_t ldb, float* c, int64_t ldc, bool accumulate) {
    run(path, true, m, n, k, a, lda, b, ldb, c, ldc, accumulate, 1.0f);
}

void gemm_f32_ab(KernelPath path, int64_t m, int64_t n, int64_t k, const float* a, int64_t lda,
                 const float* b, int64_t ldb, float* c, int64_t ldc, bool accumulate, float alpha) {
    run(path, false, m, n, k, a, lda, b, ldb, c, ldc, accumulate, alpha);
}

} // namespace folio
