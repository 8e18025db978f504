#pragma once
// Scalar reference row kernels for norms, softmax, activations and RoPE (the formulas of ggml-cpu
// ops.cpp / vec.h; see kernels/kernel_table.h for the contracts).

#include <cstdint>

namespace folio::ref {

void rms_norm(const float* x, const float* w, float* y, int64_t n, float eps);
void l2_norm(const float* x, float* y, int64_t n, float eps);
void softmax(float* x, int64_t n, float scale, const float* mask);
void silu(const float* x, float* y, int64_t n);
void swiglu(const float* g, const float* u, float* y, int64_t n);
void gelu_tanh(const float* x, float* y, int64_t n);
void gelu_erf(const float* x, float* y, int64_t n);
void rope(float* x, const float* cs, int64_t n_dims, bool neox);

} // namespace folio::ref
