#pragma once
// Scalar reference of the Q8_0 prefill GEMM (kernels/gemm_q8_0.h): the plain statement of its
// arithmetic, on the unpacked rows, against which the packed SIMD GEMM is tested bit for bit.

#include <cstddef>
#include <cstdint>

namespace folio::ref {

// y[t·y_stride + r] = row r of the Q8_0 weight (n rows of k elements, w_stride bytes apart) ·
// activation row t (Q8_0 blocks at the start of each row, x_stride bytes apart), for r < n and
// t < n_tokens, with the float steps in the order gemm_q8_0.h describes.
void gemm_q8_0(int64_t k, const uint8_t* w, size_t w_stride, int64_t n, const uint8_t* x,
               size_t x_stride, int64_t n_tokens, float* y, int64_t y_stride);

} // namespace folio::ref
