#pragma once
// Scalar reference dot products of Q4_1, Q5_0, Q5_1, IQ4_NL (32-element blocks) and Q2_K, Q3_K,
// Q5_K, IQ4_XS (256-element super-blocks) against the activation formats ggml-cpu pairs them
// with (ggml-cpu.c type_traits_cpu vec_dot_type): Q8_1 for Q4_1 / Q5_1, Q8_0 for Q5_0 / IQ4_NL,
// Q8_K for the rest. Same contract as kernels/kernel_table.h VecDotFn; exact integer sums per block
// or sub-block, scaled by the float block scales, like the AVX2 kernels.

#include <cstddef>
#include <cstdint>

namespace folio::ref {

void dot_q4_1(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os);
void dot_q5_0(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os);
void dot_q5_1(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os);
void dot_iq4_nl(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os);
void dot_q2_k(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os);
void dot_q3_k(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os);
void dot_q5_k(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os);
void dot_iq4_xs(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os);

} // namespace folio::ref
