#pragma once
// Element-wise activations (as ggml computes them: ggml-cpu vec.h) over n contiguous floats, split
// across ctx.n_threads threads. y may alias the inputs.

#include "kernels/kernel_context.h"

#include <cstdint>

namespace folio {

void silu(const KernelContext& ctx, const float* x, float* y, int64_t n); // x·σ(x)
void swiglu(const KernelContext& ctx, const float* g, const float* u, float* y,
            int64_t n);                                                        // silu(g)·u
void gelu_tanh(const KernelContext& ctx, const float* x, float* y, int64_t n); // tanh form
void gelu_erf(const KernelContext& ctx, const float* x, float* y, int64_t n);  // exact (erf)

} // namespace folio
