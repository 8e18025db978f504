#pragma once
// Scalar reference dot products (see kernels/kernel_table.h VecDotFn). The integer types use
// exactly the arithmetic of the AVX2 kernels: exact int32 sums per block (or sub-block), scaled
// by the float block scales, so both agree up to float summation order.

#include <cstddef>
#include <cstdint>

namespace folio::ref {

void dot_f32(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os);
void dot_f16(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os);
void dot_bf16(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os);
void dot_q8_0(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os);
void dot_q4_0(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os);
void dot_mxfp4(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os);
void dot_q4_k(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os);
void dot_q6_k(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os);

} // namespace folio::ref
