#include "kernels/reference/ops_ref.h"

#include <cmath>
#include <limits>

namespace folio::ref {

// RMSNorm (arXiv:1910.07467): rms = sqrt(mean(x²) + eps), y = (x / rms)·w. The sum of squares is
// accumulated in double (as ggml does), the scaling in fp32.
void rms_norm(const float* x, const float* w, float* y, int64_t n, float eps) {
    double sum = 0;
    for (int64_t i = 0; i < n; ++i)
        sum += static_cast<double>(x[i] * x[i]);
    const float mean = static_cast<float>(sum / static_cast<double>(n));
    const float scale = 1.0f / std::sqrt(mean + eps);
    for (int64_t i = 0; i < n; ++i)
        y[i] = w ? (x[i] * scale) * w[i] : x[i] * scale;
}

// y = x / max(||x||₂, eps) (ggml l2_norm).
void l2_norm(const float* x, float* y, int64_t n, float eps) {
    double sum = 0;
    for (int64_t i = 0; i < n; ++i)
        sum += static_cast<double>(x[i] * x[i]);
    const float scale = 1.0f / std::fmax(std::sqrt(static_cast<float>(sum)), eps);
    for (int64_t i = 0; i < n; ++i)
        y[i] = x[i] * scale;
}

// Numerically stable: subtract the row maximum, sum in double. A row whose every entry is
// masked to -inf becomes all zeros (no NaN).
void softmax(float* x, int64_t n, float scale, const float* mask) {
    float max = -std::numeric_limits<float>::infinity();
    for (int64_t i = 0; i < n; ++i) {
        x[i] = x[i] * scale + (mask ? mask[i] : 0.0f);
        max = std::fmax(max, x[i]);
    }
    if (max == -std::numeric_limits<float>::infinity()) {
        for (int64_t i = 0; i < n; ++i)
            x[i] = 0;
        return;
    }
    double sum = 0;
    for (int64_t i = 0; i < n; ++i) {
        x[i] = std::exp(x[i] - max);
        sum += x[i];
    }
    const float inv = static_cast<float>(1.0 / sum);
    for (int64_t i = 0; i < n; ++i)
        x[i] *= inv;
}

// SiLU x·σ(x), as ggml_vec_silu_f32.
void silu(const float* x, float* y, int64_t n) {
    for (int64_t i = 0; i < n; ++i)
        y[i] = x[i] / (1.0f + std::exp(-x[i]));
}

void swiglu(const float* g, const float* u, float* y, int64_t n) {
    for (int64_t i = 0; i < n; ++i)
        y[i] = g[i] / (1.0f + std::exp(-g[i])) * u[i];
}

void gelu_tanh(const float* x, float* y, int64_t n) {
    constexpr float kSqrt2OverPi = 0.79788456080286535588f;
    for (int64_t i = 0; i < n; ++i) {
        const float v = x[i];
        y[i] = 0.5f * v * (1.0f + std::tanh(kSqrt2OverPi * v * (1.0f + 0.044715f * v * v)));
    }
}

void gelu_erf(const float* x, float* y, int64_t n) {
    constexpr float kInvSqrt2 = 0.70710678118654752440f;
    for (int64_t i = 0; i < n; ++i)
        y[i] = 0.5f * x[i] * (1.0f + std::erf(x[i] * kInvSqrt2));
}

// ggml rope modes (ggml-cpu ops.cpp): NORM rotates (2i, 2i+1), NEOX rotates (i, i + n_dims/2).
void rope(float* x, const float* cs, int64_t n_dims, bool neox) {
    const int64_t half = n_dims / 2;
    for (int64_t i = 0; i < half; ++i) {
        const float c = cs[2 * i], s = cs[2 * i + 1];
        float* p0 = neox ? x + i : x + 2 * i;
        float* p1 = neox ? x + i + half : x + 2 * i + 1;
        const float x0 = *p0, x1 = *p1;
        *p0 = x0 * c - x1 * s;
        *p1 = x0 * s + x1 * c;
    }
}

} // namespace folio::ref
