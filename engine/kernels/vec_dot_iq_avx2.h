#pragma once
// AVX2 dot products of the grid i-quants and ternary types against Q8_K activations
// (vec_dot_iq_avx2.cpp). Declarations only: call them only when avx2_kernels_available().

#include <cstddef>
#include <cstdint>

namespace folio::avx2 {

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

} // namespace folio::avx2
