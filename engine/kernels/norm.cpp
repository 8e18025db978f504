#include "kernels/norm.h"

#include "kernels/kernel_table.h"
#include "kernels/parallel.h"

namespace folio {

void rms_norm(const KernelContext& ctx, const float* x, const float* w, float* y, int64_t n,
              int64_t n_rows, int64_t x_stride, int64_t y_stride, float eps) {
    const auto fn = kernel_table(ctx.path).rms_norm;
    parallel_rows(ctx, n_rows, n,
                  [&](int64_t r) { fn(x + r * x_stride, w, y + r * y_stride, n, eps); });
}

void l2_norm(const KernelContext& ctx, const float* x, float* y, int64_t n, int64_t n_rows,
             int64_t x_stride, int64_t y_stride, float eps) {
    const auto fn = kernel_table(ctx.path).l2_norm;
    parallel_rows(ctx, n_rows, n,
                  [&](int64_t r) { fn(x + r * x_stride, y + r * y_stride, n, eps); });
}

} // namespace folio
