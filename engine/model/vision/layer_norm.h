#pragma once
// LayerNorm as ggml_norm + ggml_mul + ggml_add compute it: mean and
// population variance accumulated in double, y = (x − mean)·(1/sqrt(var + eps)) in float, then
// ·w and +b. Rows are split across ctx.n_threads threads; x and y may alias.

#include "kernels/kernel_context.h"

#include <cstdint>

namespace folio::vision {

// For rows r < n_rows of n floats (strides in floats). w and b may be null.
void layer_norm(const KernelContext& ctx, const float* x, const float* w, const float* b, float* y,
                int64_t n, int64_t n_rows, int64_t x_stride, int64_t y_stride, float eps);

} // namespace folio::vision
