#include "kernels/activations.h"

#include "kernels/kernel_table.h"
#include "kernels/parallel.h"

#include <algorithm>

namespace folio {

namespace {

// Splits n elements into chunks (multiples of 8 so vector tails only occur at the very end).
constexpr int64_t kChunk = 4096;

template <typename Fn> void chunked(const KernelContext& ctx, int64_t n, Fn&& fn) {
    const int64_t chunks = (n + kChunk - 1) / kChunk;
    parallel_rows(ctx, chunks, kChunk, [&](int64_t c) {
        const int64_t i0 = c * kChunk;
        fn(i0, std::min(kChunk, n - i0));
    });
}

} // namespace

void silu(const KernelContext& ctx, const float* x, float* y, int64_t n) {
    const auto fn = kernel_table(ctx.path).silu;
    chunked(ctx, n, [&](int64_t i, int64_t m) { fn(x + i, y + i, m); });
}

void swiglu(const KernelContext& ctx, const float* g, const float* u, float* y, int64_t n) {
    const auto fn = kernel_table(ctx.path).swiglu;
    chunked(ctx, n, [&](int64_t i, int64_t m) { fn(g + i, u + i, y + i, m); });
}

void gelu_tanh(const KernelContext& ctx, const float* x, float* y, int64_t n) {
    const auto fn = kernel_table(ctx.path).gelu_tanh;
    chunked(ctx, n, [&](int64_t i, int64_t m) { fn(x + i, y + i, m); });
}

void gelu_erf(const KernelContext& ctx, const float* x, float* y, int64_t n) {
    const auto fn = kernel_table(ctx.path).gelu_erf;
    chunked(ctx, n, [&](int64_t i, int64_t m) { fn(x + i, y + i, m); });
}

} // namespace folio
