#pragma once
// AVX2 dot products and activation quantizer (vec_dot_avx2.cpp). Declarations only: call them
// only when avx2_kernels_available() (through avx2_kernel_table()).

#include <cstddef>
#include <cstdint>

namespace folio::avx2 {

void dot_f32(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os);
void dot_f16(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os);
void dot_bf16(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os);
void dot_q8_0(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os);
void dot_q4_0(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os);
void dot_mxfp4(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os);
void dot_iq4_nl(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os);
void dot_q4_k(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out,
              int64_t os); // vec_dot_q4k_q5k_avx2.cpp
void dot_q6_k(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os);
void quantize_q8_0(const float* x, void* dst, int64_t n);
void quantize_q8_k(const float* x, void* dst, int64_t n); // quantize_q8_k_avx2.cpp

} // namespace folio::avx2
