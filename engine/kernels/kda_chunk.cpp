#include "kernels/kda_chunk.h"

#include "kernels/kernel_table.h"

#include <cmath>

namespace folio {

namespace ref {

void kda_gate(float* x, const float* dt, const float* a, int64_t n, int64_t dh) {
    for (int64_t c = 0; c < n; ++c) {
        const float v = x[c] + dt[c];
        x[c] = a[c / dh] * (v > 20.0f ? v : std::log1p(std::exp(v)));
    }
}

void kda_pairs(const KdaPairs& p) {
    const int64_t n = p.n, dk = p.dk;
    for (int64_t r = 0; r < n; ++r) {
        const float* Gr = p.G + r * dk;
        const float* qr = p.q + r * p.ld_qk;
        const float* kr = p.k + r * p.ld_qk;
        float* Ar = p.A + r * n;
        float* Lr = p.L + r * n;
        for (int64_t i = 0; i <= r; ++i) {
            const float* Gi = p.G + i * dk;
            const float* ki = p.k + i * p.ld_qk;
            float sa = 0.0f, sl = 0.0f;
            for (int64_t d = 0; d < dk; ++d) {
                const float e = std::exp(Gr[d] - Gi[d]) * ki[d];
                sa += qr[d] * e;
                sl += kr[d] * e;
            }
            Ar[i] = sa;
            Lr[i] = i < r ? p.beta[r * p.beta_stride] * sl : 0.0f;
        }
        for (int64_t i = r + 1; i < n; ++i)
            Ar[i] = Lr[i] = 0.0f;
    }
}

void kda_decay_keys_t(const KdaPairs& p, float* out) {
    const int64_t n = p.n, dk = p.dk;
    const float* Gl = p.G + (n - 1) * dk;
    for (int64_t i = 0; i < n; ++i)
        for (int64_t d = 0; d < dk; ++d)
            out[d * n + i] = std::exp(Gl[d] - p.G[i * dk + d]) * p.k[i * p.ld_qk + d];
}

} // namespace ref

KdaPairsFn kda_pairs_kernel(KernelPath path) {
#if defined(FOLIO_X86)
    if (path != KernelPath::Reference && avx2_kernels_available())
        return avx2::kda_pairs;
#else
    (void)path;
#endif
    return ref::kda_pairs;
}

KdaDecayKeysFn kda_decay_keys_kernel(KernelPath path) {
#if defined(FOLIO_X86)
    if (path != KernelPath::Reference && avx2_kernels_available())
        return avx2::kda_decay_keys_t;
#else
    (void)path;
#endif
    return ref::kda_decay_keys_t;
}

KdaGateFn kda_gate_kernel(KernelPath path) {
#if defined(FOLIO_X86)
    if (path != KernelPath::Reference && avx2_kernels_available())
        return avx2::kda_gate;
#else
    (void)path;
#endif
    return ref::kda_gate;
}

} // namespace folio
