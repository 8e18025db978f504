#pragma once
// Internal: run a per-row function over rows with OpenMP, using ctx.n_threads threads when the
// work is big enough to pay for the fork (row_cost ≈ elements per row).
//
// parallel_for skips OpenMP altogether on one thread. A region whose if() clause is false still
// goes through GOMP_parallel, which builds and frees a team of one (about half a microsecond),
// and inside another region (the experts, the attention heads) a nested one. Decode calls small
// kernels about 900 times per token on the bench deepseek2 file, almost all on one thread.

#include "kernels/kernel_context.h"

#include <algorithm>
#include <cstdint>

namespace folio {

template <typename Fn> void parallel_for(int threads, int64_t n, Fn&& fn) {
    if (threads <= 1) {
        for (int64_t i = 0; i < n; ++i)
            fn(i);
        return;
    }
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t i = 0; i < n; ++i)
        fn(i);
}

template <typename Fn>
void parallel_rows(const KernelContext& ctx, int64_t n_rows, int64_t row_cost, Fn&& fn) {
    constexpr int64_t kMinWorkPerThread = 16384;
    const int64_t useful =
        std::max<int64_t>(1, n_rows * std::max<int64_t>(row_cost, 1) / kMinWorkPerThread);
    const int threads =
        static_cast<int>(std::max<int64_t>(1, std::min<int64_t>({ctx.n_threads, n_rows, useful})));
    parallel_for(threads, n_rows, fn);
}

} // namespace folio
