#pragma once
// AVX2 row kernels for norms, softmax, activations and RoPE (ops_avx2.cpp). Same contracts as
// kernels/reference/ops_ref.h; exp/erf/tanh use polynomial approximations accurate to a few
// float ulp (see the tolerances in tests/engine/kernels/test_kernels_ops.cpp). Declarations only.

#include <cstdint>

namespace folio::avx2 {

void rms_norm(const float* x, const float* w, float* y, int64_t n, float eps);
void l2_norm(const float* x, float* y, int64_t n, float eps);
void softmax(float* x, int64_t n, float scale, const float* mask);
void silu(const float* x, float* y, int64_t n);
void swiglu(const float* g, const float* u, float* y, int64_t n);
void gelu_tanh(const float* x, float* y, int64_t n);
void gelu_erf(const float* x, float* y, int64_t n);
void rope(float* x, const float* cs, int64_t n_dims, bool neox);

} // namespace folio::avx2
