// AVX2 + FMA row kernels (see ops_avx2.h). Internal-linkage helpers only; entered through
// avx2_kernel_table() after the run-time CPU check. Tails shorter than 8 use masked loads and
// stores so the vector formula (and its rounding) applies to every element.
#include "kernels/ops_avx2.h"

#include "kernels/avx2_intrinsics.h"
#include "kernels/exp_avx2.h"

#include <immintrin.h>

namespace folio::avx2 {

namespace {

inline __m256 load_n(const float* p, int64_t n) {
    return n >= 8 ? _mm256_loadu_ps(p) : _mm256_maskload_ps(p, tail_mask(n));
}

inline void store_n(float* p, __m256 v, int64_t n) {
    if (n >= 8)
        _mm256_storeu_ps(p, v);
    else
        _mm256_maskstore_ps(p, tail_mask(n), v);
}

inline double hsum_pd(__m256d v) {
    __m128d s = _mm_add_pd(_mm256_castpd256_pd128(v), _mm256_extractf128_pd(v, 1));
    s = _mm_add_sd(s, _mm_unpackhi_pd(s, s));
    return _mm_cvtsd_f64(s);
}

// Adds the squares of the 8 lanes (squared in f32, as the reference) to a double accumulator.
inline __m256d add_squares(__m256d acc, __m256 v) {
    const __m256 sq = _mm256_mul_ps(v, v);
    acc = _mm256_add_pd(acc, _mm256_cvtps_pd(_mm256_castps256_ps128(sq)));
    return _mm256_add_pd(acc, _mm256_cvtps_pd(_mm256_extractf128_ps(sq, 1)));
}

inline __m256 silu_ps(__m256 x) {
    const __m256 one = _mm256_set1_ps(1.0f);
    const __m256 e = exp_ps(_mm256_sub_ps(_mm256_setzero_ps(), x));
    return _mm256_div_ps(x, _mm256_add_ps(one, e));
}

// tanh(y) = 1 − 2/(exp(2y) + 1), with y clamped to ±9 (tanh(9) rounds to 1 in float).
inline __m256 tanh_ps(__m256 y) {
    const __m256 one = _mm256_set1_ps(1.0f);
    y = _mm256_min_ps(_mm256_max_ps(y, _mm256_set1_ps(-9.0f)), _mm256_set1_ps(9.0f));
    const __m256 e = exp_ps(_mm256_add_ps(y, y));
    return _mm256_sub_ps(one, _mm256_div_ps(_mm256_set1_ps(2.0f), _mm256_add_ps(e, one)));
}

// erf via the Numerical Recipes erfc Chebyshev fit (relative error < 1.2e-7 on erfc).
inline __m256 erf_ps(__m256 x) {
    const __m256 sign = _mm256_and_ps(x, _mm256_set1_ps(-0.0f));
    const __m256 z = _mm256_andnot_ps(_mm256_set1_ps(-0.0f), x);
    const __m256 one = _mm256_set1_ps(1.0f);
    const __m256 t = _mm256_div_ps(one, _mm256_fmadd_ps(_mm256_set1_ps(0.5f), z, one));
    static constexpr float kC[10] = {-1.26551223f, 1.00002368f, 0.37409196f,  0.09678418f,
                                     -0.18628806f, 0.27886807f, -1.13520398f, 1.48851587f,
                                     -0.82215223f, 0.17087277f};
    __m256 p = _mm256_set1_ps(kC[9]);
    for (int i = 8; i >= 0; --i)
        p = _mm256_fmadd_ps(p, t, _mm256_set1_ps(kC[i]));
    const __m256 erfc = _mm256_mul_ps(t, exp_ps(_mm256_fnmadd_ps(z, z, p)));
    return _mm256_or_ps(sign, _mm256_sub_ps(one, erfc));
}

template <typename Op> void map1(const float* x, float* y, int64_t n, Op op) {
    for (int64_t i = 0; i < n; i += 8)
        store_n(y + i, op(load_n(x + i, n - i)), n - i);
}

} // namespace

void rms_norm(const float* x, const float* w, float* y, int64_t n, float eps) {
    __m256d acc = _mm256_setzero_pd();
    for (int64_t i = 0; i < n; i += 8)
        acc = add_squares(acc, load_n(x + i, n - i));
    const float mean = static_cast<float>(hsum_pd(acc) / static_cast<double>(n));
    const __m256 scale = _mm256_set1_ps(1.0f / _mm_cvtss_f32(_mm_sqrt_ss(_mm_set_ss(mean + eps))));
    for (int64_t i = 0; i < n; i += 8) {
        __m256 v = _mm256_mul_ps(load_n(x + i, n - i), scale);
        if (w)
            v = _mm256_mul_ps(v, load_n(w + i, n - i));
        store_n(y + i, v, n - i);
    }
}

void l2_norm(const float* x, float* y, int64_t n, float eps) {
    __m256d acc = _mm256_setzero_pd();
    for (int64_t i = 0; i < n; i += 8)
        acc = add_squares(acc, load_n(x + i, n - i));
    const float norm = _mm_cvtss_f32(_mm_sqrt_ss(_mm_set_ss(static_cast<float>(hsum_pd(acc)))));
    const __m256 scale = _mm256_set1_ps(1.0f / (norm > eps ? norm : eps));
    for (int64_t i = 0; i < n; i += 8)
        store_n(y + i, _mm256_mul_ps(load_n(x + i, n - i), scale), n - i);
}

void softmax(float* x, int64_t n, float scale, const float* mask) {
    const __m256 vs = _mm256_set1_ps(scale);
    const float neg_inf = -__builtin_inff();
    __m256 vmax = _mm256_set1_ps(neg_inf);
    for (int64_t i = 0; i < n; i += 8) {
        __m256 v = _mm256_mul_ps(load_n(x + i, n - i), vs);
        if (mask)
            v = _mm256_add_ps(v, load_n(mask + i, n - i));
        store_n(x + i, v, n - i);
        if (n - i < 8) // keep -inf in the unused lanes
            v = _mm256_blendv_ps(_mm256_set1_ps(neg_inf), v, _mm256_castsi256_ps(tail_mask(n - i)));
        vmax = _mm256_max_ps(vmax, v);
    }
    __m128 m4 = _mm_max_ps(_mm256_castps256_ps128(vmax), _mm256_extractf128_ps(vmax, 1));
    m4 = _mm_max_ps(m4, _mm_movehl_ps(m4, m4));
    m4 = _mm_max_ss(m4, _mm_movehdup_ps(m4));
    const float max = _mm_cvtss_f32(m4);
    if (max == neg_inf) {
        for (int64_t i = 0; i < n; ++i)
            x[i] = 0;
        return;
    }
    const __m256 vm = _mm256_set1_ps(max);
    __m256d sum = _mm256_setzero_pd();
    for (int64_t i = 0; i < n; i += 8) {
        __m256 e = exp_ps(_mm256_sub_ps(load_n(x + i, n - i), vm));
        if (n - i < 8)
            e = _mm256_and_ps(e, _mm256_castsi256_ps(tail_mask(n - i)));
        store_n(x + i, e, n - i);
        sum = _mm256_add_pd(sum, _mm256_cvtps_pd(_mm256_castps256_ps128(e)));
        sum = _mm256_add_pd(sum, _mm256_cvtps_pd(_mm256_extractf128_ps(e, 1)));
    }
    const __m256 inv = _mm256_set1_ps(static_cast<float>(1.0 / hsum_pd(sum)));
    for (int64_t i = 0; i < n; i += 8)
        store_n(x + i, _mm256_mul_ps(load_n(x + i, n - i), inv), n - i);
}

void silu(const float* x, float* y, int64_t n) {
    map1(x, y, n, silu_ps);
}

void swiglu(const float* g, const float* u, float* y, int64_t n) {
    for (int64_t i = 0; i < n; i += 8)
        store_n(y + i, _mm256_mul_ps(silu_ps(load_n(g + i, n - i)), load_n(u + i, n - i)), n - i);
}

void gelu_tanh(const float* x, float* y, int64_t n) {
    map1(x, y, n, [](__m256 v) {
        const __m256 half = _mm256_set1_ps(0.5f);
        const __m256 inner = _mm256_mul_ps(
            _mm256_mul_ps(_mm256_set1_ps(0.79788456080286535588f), v),
            _mm256_fmadd_ps(_mm256_mul_ps(_mm256_set1_ps(0.044715f), v), v, _mm256_set1_ps(1.0f)));
        return _mm256_mul_ps(_mm256_mul_ps(half, v),
                             _mm256_add_ps(_mm256_set1_ps(1.0f), tanh_ps(inner)));
    });
}

void gelu_erf(const float* x, float* y, int64_t n) {
    map1(x, y, n, [](__m256 v) {
        const __m256 e = erf_ps(_mm256_mul_ps(v, _mm256_set1_ps(0.70710678118654752440f)));
        return _mm256_mul_ps(_mm256_mul_ps(_mm256_set1_ps(0.5f), v),
                             _mm256_add_ps(_mm256_set1_ps(1.0f), e));
    });
}

void rope(float* x, const float* cs, int64_t n_dims, bool neox) {
    const int64_t half = n_dims / 2;
    int64_t i = 0;
    if (neox) {
        // Pairs (i, i + half): deinterleave 8 (cos, sin) pairs into cos and sin vectors.
        for (; i + 8 <= half; i += 8) {
            const __m256 a = _mm256_loadu_ps(cs + 2 * i), b = _mm256_loadu_ps(cs + 2 * i + 8);
            const __m256 c = _mm256_castpd_ps(
                _mm256_permute4x64_pd(_mm256_castps_pd(_mm256_shuffle_ps(a, b, 0x88)), 0xD8));
            const __m256 s = _mm256_castpd_ps(
                _mm256_permute4x64_pd(_mm256_castps_pd(_mm256_shuffle_ps(a, b, 0xDD)), 0xD8));
            const __m256 x0 = _mm256_loadu_ps(x + i), x1 = _mm256_loadu_ps(x + i + half);
            _mm256_storeu_ps(x + i, _mm256_fmsub_ps(x0, c, _mm256_mul_ps(x1, s)));
            _mm256_storeu_ps(x + i + half, _mm256_fmadd_ps(x0, s, _mm256_mul_ps(x1, c)));
        }
        for (; i < half; ++i) {
            const float c = cs[2 * i], s = cs[2 * i + 1], x0 = x[i], x1 = x[i + half];
            x[i] = x0 * c - x1 * s;
            x[i + half] = x0 * s + x1 * c;
        }
        return;
    }
    // Pairs (2i, 2i+1) have the same interleaving as cs: fmaddsub gives x0·c − x1·s in even
    // lanes and x1·c + x0·s in odd lanes.
    for (; 2 * i + 8 <= n_dims; i += 4) {
        const __m256 v = _mm256_loadu_ps(x + 2 * i), t = _mm256_loadu_ps(cs + 2 * i);
        const __m256 c = _mm256_moveldup_ps(t), s = _mm256_movehdup_ps(t);
        const __m256 sw = _mm256_permute_ps(v, 0xB1);
        _mm256_storeu_ps(x + 2 * i, _mm256_fmaddsub_ps(v, c, _mm256_mul_ps(sw, s)));
    }
    for (; i < half; ++i) {
        const float c = cs[2 * i], s = cs[2 * i + 1], x0 = x[2 * i], x1 = x[2 * i + 1];
        x[2 * i] = x0 * c - x1 * s;
        x[2 * i + 1] = x0 * s + x1 * c;
    }
}

} // namespace folio::avx2
