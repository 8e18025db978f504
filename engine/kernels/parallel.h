#pragma once
// Internal: run a per-row function over rows with OpenMP, using ctx.n_threads threads when the
// work is big enough to pay for the fork (row_cost ≈ elements per row).

#include "kernels/kernel_context.h"

#include <algorithm>
#include <cstdint>

namespace folio {

template <typename Fn>
void parallel_rows(const KernelContext& ctx, int64_t n_rows, int64_t row_cost, Fn&& fn) {
    constexpr int64_t kMinWorkPerThread = 16384;
    const int64_t useful =
        std::max<int64_t>(1, n_rows * std::max<int64_t>(row_cost, 1) / kMinWorkPerThread);
    const int threads =
        static_cast<int>(std::max<int64_t>(1, std::min<int64_t>({ctx.n_threads, n_rows, useful})));
#pragma omp parallel for num_threads(threads) schedule(static) if (threads > 1)
    for (int64_t r = 0; r < n_rows; ++r)
        fn(r);
}

} // namespace folio
