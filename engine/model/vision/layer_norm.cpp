#include "model/vision/layer_norm.h"

#include "kernels/parallel.h"

#include <cmath>

namespace folio::vision {

void layer_norm(const KernelContext& ctx, const float* x, const float* w, const float* b, float* y,
                int64_t n, int64_t n_rows, int64_t x_stride, int64_t y_stride, float eps) {
    parallel_rows(ctx, n_rows, n * 4, [&](int64_t r) {
        const float* xr = x + r * x_stride;
        float* yr = y + r * y_stride;
        double sum = 0.0;
        for (int64_t i = 0; i < n; ++i)
            sum += static_cast<double>(xr[i]);
        const float mean = static_cast<float>(sum / static_cast<double>(n));
        double sum2 = 0.0;
        for (int64_t i = 0; i < n; ++i) {
            const float v = xr[i] - mean;
            yr[i] = v;
            sum2 += static_cast<double>(v * v);
        }
        const float variance = static_cast<float>(sum2 / static_cast<double>(n));
        const float scale = 1.0f / std::sqrt(variance + eps);
        for (int64_t i = 0; i < n; ++i) {
            float v = yr[i] * scale;
            if (w != nullptr)
                v = v * w[i];
            if (b != nullptr)
                v = v + b[i];
            yr[i] = v;
        }
    });
}

} // namespace folio::vision
