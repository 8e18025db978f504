#pragma once
// RMSNorm (Zhang & Sennrich, arXiv:1910.07467; ggml_rms_norm) and L2 norm over rows of n floats,
// rows split across ctx.n_threads threads. x and y may alias (in place).

#include "kernels/kernel_context.h"

#include <cstdint>

namespace folio {

// y_r = x_r / sqrt(mean(x_r²) + eps) · w, for rows r < n_rows (strides in floats). w may be null.
void rms_norm(const KernelContext& ctx, const float* x, const float* w, float* y, int64_t n,
              int64_t n_rows, int64_t x_stride, int64_t y_stride, float eps);
// y_r = x_r / max(||x_r||₂, eps)
void l2_norm(const KernelContext& ctx, const float* x, float* y, int64_t n, int64_t n_rows,
             int64_t x_stride, int64_t y_stride, float eps);

} // namespace folio
