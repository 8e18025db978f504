#include "model/vision/gelu_table.h"

#include "kernels/parallel.h"
#include "tensor/fp16.h"

#include <algorithm>
#include <cmath>

namespace folio::vision {

namespace {

// The tanh form of GELU, in float as ggml_gelu_f32.
float gelu_tanh_f32(float x) {
    constexpr float kSqrt2OverPi = 0.79788456080286535587989211986876f;
    constexpr float kCoefA = 0.044715f;
    return 0.5f * x * (1.0f + std::tanh(kSqrt2OverPi * x * (1.0f + kCoefA * x * x)));
}

float gelu_quick_f32(float x) {
    constexpr float kCoef = -1.702f;
    return x * (1.0f / (1.0f + std::exp(kCoef * x)));
}

} // namespace

GeluTable make_gelu_table(GeluKind kind) {
    GeluTable t;
    t.kind = kind;
    t.values.resize(65536);
    for (uint32_t i = 0; i < 65536; ++i) {
        const float f = fp16_to_fp32(static_cast<uint16_t>(i));
        const float g = kind == GeluKind::Tanh ? gelu_tanh_f32(f) : gelu_quick_f32(f);
        t.values[i] = fp16_to_fp32(fp32_to_fp16(g));
    }
    return t;
}

void gelu_fp16(const KernelContext& ctx, const GeluTable& table, const float* x, float* y,
               int64_t n) {
    constexpr int64_t kChunk = 4096;
    const float* v = table.values.data();
    const bool tanh_form = table.kind == GeluKind::Tanh;
    parallel_rows(ctx, (n + kChunk - 1) / kChunk, kChunk, [&](int64_t c) {
        const int64_t end = std::min(n, (c + 1) * kChunk);
        for (int64_t i = c * kChunk; i < end; ++i) {
            const float xi = x[i];
            // ggml_vec_gelu_f32 clamps the tanh form only; the quick form always uses the table.
            if (tanh_form && xi <= -10.0f)
                y[i] = 0.0f;
            else if (tanh_form && xi >= 10.0f)
                y[i] = xi;
            else
                y[i] = v[fp32_to_fp16(xi)];
        }
    });
}

void gelu_f32(const KernelContext& ctx, GeluKind kind, const float* x, float* y, int64_t n) {
    constexpr int64_t kChunk = 4096;
    parallel_rows(ctx, (n + kChunk - 1) / kChunk, kChunk, [&](int64_t c) {
        const int64_t end = std::min(n, (c + 1) * kChunk);
        for (int64_t i = c * kChunk; i < end; ++i)
            y[i] = kind == GeluKind::Tanh ? gelu_tanh_f32(x[i]) : gelu_quick_f32(x[i]);
    });
}

} // namespace folio::vision
