// AVX2+FMA forms of the KDA in-chunk kernels (kda_chunk.h): 8 key channels per vector, the
// exp by exp_avx2.h's polynomial. The tail of dk is read with masked loads; masked lanes
// load G = 0 and k = 0, so they add exp(0)·0 = 0. Compiled with -mavx2 -mfma, entered only
// when avx2_kernels_available().
#include "kernels/exp_avx2.h"
#include "kernels/kda_chunk.h"

#include <immintrin.h>

namespace folio::avx2 {

namespace {

// Mask with the first n (0..8) lanes set.
inline __m256i tail_mask(int64_t n) {
    const __m256i idx = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(n)), idx);
}

inline float hsum(__m256 v) {
    __m128 x = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    x = _mm_add_ps(x, _mm_movehl_ps(x, x));
    x = _mm_add_ss(x, _mm_movehdup_ps(x));
    return _mm_cvtss_f32(x);
}

} // namespace

void kda_pairs(const KdaPairs& p) {
    const int64_t n = p.n, dk = p.dk, full = dk / 8 * 8;
    const __m256i tm = tail_mask(dk - full);
    for (int64_t r = 0; r < n; ++r) {
        const float* Gr = p.G + r * dk;
        const float* qr = p.q + r * p.ld_qk;
        const float* kr = p.k + r * p.ld_qk;
        float* Ar = p.A + r * n;
        float* Lr = p.L + r * n;
        // Two columns i per pass: the row-r loads are shared and the two exp chains overlap.
        int64_t i = 0;
        for (; i + 1 <= r; i += 2) {
            const float* G0 = p.G + i * dk;
            const float* G1 = G0 + dk;
            const float* k0 = p.k + i * p.ld_qk;
            const float* k1 = k0 + p.ld_qk;
            __m256 a0 = _mm256_setzero_ps(), l0 = a0, a1 = a0, l1 = a0;
            int64_t d = 0;
            for (; d < full; d += 8) {
                const __m256 g = _mm256_loadu_ps(Gr + d);
                const __m256 q = _mm256_loadu_ps(qr + d), kk = _mm256_loadu_ps(kr + d);
                const __m256 e0 = _mm256_mul_ps(exp_ps(_mm256_sub_ps(g, _mm256_loadu_ps(G0 + d))),
                                                _mm256_loadu_ps(k0 + d));
                const __m256 e1 = _mm256_mul_ps(exp_ps(_mm256_sub_ps(g, _mm256_loadu_ps(G1 + d))),
                                                _mm256_loadu_ps(k1 + d));
                a0 = _mm256_fmadd_ps(q, e0, a0);
                l0 = _mm256_fmadd_ps(kk, e0, l0);
                a1 = _mm256_fmadd_ps(q, e1, a1);
                l1 = _mm256_fmadd_ps(kk, e1, l1);
            }
            if (d < dk) {
                const __m256 g = _mm256_maskload_ps(Gr + d, tm);
                const __m256 q = _mm256_maskload_ps(qr + d, tm);
                const __m256 kk = _mm256_maskload_ps(kr + d, tm);
                const __m256 e0 =
                    _mm256_mul_ps(exp_ps(_mm256_sub_ps(g, _mm256_maskload_ps(G0 + d, tm))),
                                  _mm256_maskload_ps(k0 + d, tm));
                const __m256 e1 =
                    _mm256_mul_ps(exp_ps(_mm256_sub_ps(g, _mm256_maskload_ps(G1 + d, tm))),
                                  _mm256_maskload_ps(k1 + d, tm));
                a0 = _mm256_fmadd_ps(q, e0, a0);
                l0 = _mm256_fmadd_ps(kk, e0, l0);
                a1 = _mm256_fmadd_ps(q, e1, a1);
                l1 = _mm256_fmadd_ps(kk, e1, l1);
            }
            Ar[i] = hsum(a0);
            Ar[i + 1] = hsum(a1);
            Lr[i] = hsum(l0); // β applied below
            Lr[i + 1] = hsum(l1);
        }
        for (; i <= r; ++i) {
            const float* Gi = p.G + i * dk;
            const float* ki = p.k + i * p.ld_qk;
            __m256 a = _mm256_setzero_ps(), l = a;
            int64_t d = 0;
            for (; d < full; d += 8) {
                const __m256 e = _mm256_mul_ps(
                    exp_ps(_mm256_sub_ps(_mm256_loadu_ps(Gr + d), _mm256_loadu_ps(Gi + d))),
                    _mm256_loadu_ps(ki + d));
                a = _mm256_fmadd_ps(_mm256_loadu_ps(qr + d), e, a);
                l = _mm256_fmadd_ps(_mm256_loadu_ps(kr + d), e, l);
            }
            if (d < dk) {
                const __m256 e =
                    _mm256_mul_ps(exp_ps(_mm256_sub_ps(_mm256_maskload_ps(Gr + d, tm),
                                                       _mm256_maskload_ps(Gi + d, tm))),
                                  _mm256_maskload_ps(ki + d, tm));
                a = _mm256_fmadd_ps(_mm256_maskload_ps(qr + d, tm), e, a);
                l = _mm256_fmadd_ps(_mm256_maskload_ps(kr + d, tm), e, l);
            }
            Ar[i] = hsum(a);
            Lr[i] = hsum(l);
        }
        const float b = p.beta[r * p.beta_stride];
        for (int64_t j = 0; j < r; ++j)
            Lr[j] *= b;
        Lr[r] = 0.0f;
        for (int64_t j = r + 1; j < n; ++j)
            Ar[j] = Lr[j] = 0.0f;
    }
}

void kda_decay_keys_t(const KdaPairs& p, float* out) {
    const int64_t n = p.n, dk = p.dk, full = dk / 8 * 8;
    const float* Gl = p.G + (n - 1) * dk;
    alignas(32) float e[8];
    for (int64_t i = 0; i < n; ++i) {
        const float* Gi = p.G + i * dk;
        const float* ki = p.k + i * p.ld_qk;
        int64_t d = 0;
        // Computed along d (contiguous), scattered into column i of the transposed output.
        for (; d < full; d += 8) {
            const __m256 v = _mm256_mul_ps(
                exp_ps(_mm256_sub_ps(_mm256_loadu_ps(Gl + d), _mm256_loadu_ps(Gi + d))),
                _mm256_loadu_ps(ki + d));
            _mm256_store_ps(e, v);
            for (int j = 0; j < 8; ++j)
                out[(d + j) * n + i] = e[j];
        }
        if (d < dk) {
            const __m256i tm = tail_mask(dk - d);
            const __m256 v = _mm256_mul_ps(exp_ps(_mm256_sub_ps(_mm256_maskload_ps(Gl + d, tm),
                                                                _mm256_maskload_ps(Gi + d, tm))),
                                           _mm256_maskload_ps(ki + d, tm));
            _mm256_store_ps(e, v);
            for (int64_t j = 0; d + j < dk; ++j)
                out[(d + j) * n + i] = e[j];
        }
    }
}

} // namespace folio::avx2
