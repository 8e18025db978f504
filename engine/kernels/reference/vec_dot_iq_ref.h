#pragma once
// Scalar reference dot products of the grid i-quants and ternary types against Q8_K activations
// (kernels/kernel_table.h VecDotFn; ggml-cpu pairs all of them with Q8_K, type_traits_cpu). Exact
// int32 sums per block (Σ_g scale_g · Σ_{8 values} q·x_q8), then per block
// d_w·d_x·sum, and the type's constant factor once at the end, as ggml's
// ggml_vec_dot_iq*_q8_K / ggml_vec_dot_tq*_q8_K do; the AVX2 kernels have the same int32 sums.

#include <cstddef>
#include <cstdint>

namespace folio::ref {

void dot_iq2_xxs(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out,
                 int64_t os);
void dot_iq2_xs(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os);
void dot_iq2_s(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os);
void dot_iq3_xxs(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out,
                 int64_t os);
void dot_iq3_s(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os);
void dot_iq1_s(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os);
void dot_iq1_m(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os);
void dot_tq1_0(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os);
void dot_tq2_0(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os);

} // namespace folio::ref
