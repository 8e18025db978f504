#pragma once
// Scalar reference dot products of Q1_0 and Q2_0 weights (tensor/quant_blocks_q1_q2.h) against
// Q8_0 activations, the activation format ggml-cpu pairs them with (ggml-cpu.c type_traits_cpu
// vec_dot_type). Same contract as kernels/kernel_table.h VecDotFn; an exact integer sum per
// 32-element activation block, scaled by d_w·d_x and added in block order.

#include <cstddef>
#include <cstdint>

namespace folio::ref {

void dot_q1_0(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os);
void dot_q2_0(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os);

} // namespace folio::ref
