#include "kernels/softmax.h"

#include "kernels/kernel_table.h"
#include "kernels/parallel.h"

#include <limits>

namespace folio {

void softmax(const KernelContext& ctx, float* x, int64_t n, int64_t n_rows, int64_t stride,
             float scale, const float* mask, int64_t mask_stride) {
    const auto fn = kernel_table(ctx.path).softmax;
    parallel_rows(ctx, n_rows, n, [&](int64_t r) {
        fn(x + r * stride, n, scale, mask ? mask + r * mask_stride : nullptr);
    });
}

void fill_causal_mask(float* mask, int64_t n_q, int64_t n_kv, int64_t q_pos0) {
    const float neg_inf = -std::numeric_limits<float>::infinity();
    for (int64_t r = 0; r < n_q; ++r)
        for (int64_t c = 0; c < n_kv; ++c)
            mask[r * n_kv + c] = c <= q_pos0 + r ? 0.0f : neg_inf;
}

} // namespace folio
