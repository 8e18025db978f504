// AVX2+FMA forms of the KDA in-chunk kernels (kda_chunk.h): 8 key channels per vector, the
// exp by exp_avx2.h's polynomial. The tail of dk is read with masked loads; masked lanes
// load G = 0 and k = 0, so they add exp(0)·0 = 0. Compiled with -mavx2 -mfma, entered only
// when avx2_kernels_available().
#include "kernels/avx2_intrinsics.h"
#include "kernels/exp_avx2.h"
#include "kernels/kda_chunk.h"

#include <immintrin.h>

namespace folio::avx2 {

namespace {

// log(y) for y ≥ 1 (finite): y = m·2^e with m in [√½, √2), then Cephes' logf polynomial in
// m − 1.
inline __m256 log_ge1_ps(__m256 y) {
    const __m256i bits = _mm256_castps_si256(y);
    __m256 e =
        _mm256_cvtepi32_ps(_mm256_sub_epi32(_mm256_srli_epi32(bits, 23), _mm256_set1_epi32(127)));
    __m256 m = _mm256_castsi256_ps(_mm256_or_si256(
        _mm256_and_si256(bits, _mm256_set1_epi32(0x007fffff)), _mm256_set1_epi32(0x3f800000)));
    // m in [1, 2): fold the upper part to [√½, 1) so the polynomial argument stays small.
    const __m256 big = _mm256_cmp_ps(m, _mm256_set1_ps(1.41421356f), _CMP_GT_OQ);
    m = _mm256_blendv_ps(m, _mm256_mul_ps(m, _mm256_set1_ps(0.5f)), big);
    e = _mm256_add_ps(e, _mm256_and_ps(big, _mm256_set1_ps(1.0f)));
    const __m256 x = _mm256_sub_ps(m, _mm256_set1_ps(1.0f));
    const __m256 z = _mm256_mul_ps(x, x);
    __m256 p = _mm256_set1_ps(7.0376836292e-2f);
    p = _mm256_fmadd_ps(p, x, _mm256_set1_ps(-1.1514610310e-1f));
    p = _mm256_fmadd_ps(p, x, _mm256_set1_ps(1.1676998740e-1f));
    p = _mm256_fmadd_ps(p, x, _mm256_set1_ps(-1.2420140846e-1f));
    p = _mm256_fmadd_ps(p, x, _mm256_set1_ps(1.4249322787e-1f));
    p = _mm256_fmadd_ps(p, x, _mm256_set1_ps(-1.6668057665e-1f));
    p = _mm256_fmadd_ps(p, x, _mm256_set1_ps(2.0000714765e-1f));
    p = _mm256_fmadd_ps(p, x, _mm256_set1_ps(-2.4999993993e-1f));
    p = _mm256_fmadd_ps(p, x, _mm256_set1_ps(3.3333331174e-1f));
    __m256 r = _mm256_mul_ps(_mm256_mul_ps(p, x), z);
    r = _mm256_fmadd_ps(e, _mm256_set1_ps(-2.12194440e-4f), r);
    r = _mm256_fnmadd_ps(z, _mm256_set1_ps(0.5f), r);
    r = _mm256_add_ps(x, r);
    return _mm256_fmadd_ps(e, _mm256_set1_ps(0.693359375f), r);
}

// softplus(v) = max(v, 0) + log1p(exp(−|v|)); log1p(t) = log(1 + t)·t / ((1 + t) − 1) keeps
// full relative accuracy for small t (and is t itself when 1 + t rounds to 1). Above 20 the
// threshold of the reference (v itself) applies.
inline __m256 softplus_ps(__m256 v) {
    const __m256 absmask = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));
    const __m256 t = exp_ps(_mm256_xor_ps(_mm256_and_ps(v, absmask), _mm256_set1_ps(-0.0f)));
    const __m256 u = _mm256_add_ps(_mm256_set1_ps(1.0f), t);
    const __m256 um1 = _mm256_sub_ps(u, _mm256_set1_ps(1.0f));
    const __m256 exact = _mm256_cmp_ps(um1, _mm256_setzero_ps(), _CMP_EQ_OQ);
    const __m256 l =
        _mm256_blendv_ps(_mm256_mul_ps(log_ge1_ps(u), _mm256_div_ps(t, um1)), t, exact);
    const __m256 s = _mm256_add_ps(_mm256_max_ps(v, _mm256_setzero_ps()), l);
    return _mm256_blendv_ps(s, v, _mm256_cmp_ps(v, _mm256_set1_ps(20.0f), _CMP_GT_OQ));
}

} // namespace

void kda_gate(float* x, const float* dt, const float* a, int64_t n, int64_t dh) {
    int64_t c = 0;
    for (; c + 8 <= n; c += 8) {
        const __m256 v = _mm256_add_ps(_mm256_loadu_ps(x + c), _mm256_loadu_ps(dt + c));
        // a per head: heads are dh channels wide; a vector may straddle two heads.
        __m256 av;
        if (c / dh == (c + 7) / dh)
            av = _mm256_set1_ps(a[c / dh]);
        else {
            alignas(32) float tmp[8];
            for (int j = 0; j < 8; ++j)
                tmp[j] = a[(c + j) / dh];
            av = _mm256_load_ps(tmp);
        }
        _mm256_storeu_ps(x + c, _mm256_mul_ps(av, softplus_ps(v)));
    }
    if (c < n) {
        const __m256i tm = tail_mask(n - c);
        alignas(32) float tmp[8] = {};
        for (int64_t j = 0; c + j < n; ++j)
            tmp[j] = a[(c + j) / dh];
        const __m256 v =
            _mm256_add_ps(_mm256_maskload_ps(x + c, tm), _mm256_maskload_ps(dt + c, tm));
        _mm256_maskstore_ps(x + c, tm, _mm256_mul_ps(_mm256_load_ps(tmp), softplus_ps(v)));
    }
}

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
