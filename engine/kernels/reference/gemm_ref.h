#pragma once
// Scalar references of the prefill GEMMs (kernels/gemm_q8_0.h, kernels/gemm_kquant.h): the plain
// statement of their arithmetic, on the unpacked rows, against which the packed SIMD GEMMs are
// tested bit for bit.

#include "tensor/dtype.h"

#include <cstddef>
#include <cstdint>

namespace folio::ref {

// y[t·y_stride + r] = row r of the Q8_0 weight (n rows of k elements, w_stride bytes apart) ·
// activation row t (Q8_0 blocks at the start of each row, x_stride bytes apart), for r < n and
// t < n_tokens, with the float steps in the order gemm_q8_0.h describes.
void gemm_q8_0(int64_t k, const uint8_t* w, size_t w_stride, int64_t n, const uint8_t* x,
               size_t x_stride, int64_t n_tokens, float* y, int64_t y_stride);

} // namespace folio::ref

namespace folio::ref {

// Scalar reference of the K-quant prefill GEMM (kernels/gemm_kquant.h): y[t·y_stride + r] = row
// r of a Q2_K .. Q6_K / IQ4_XS weight (n rows of k elements, w_stride bytes apart) · Q8_K
// activation row t (x_stride bytes apart), decoding the blocks straight from their layouts and
// doing the float steps in the order gemm_kquant.h states.
void gemm_kquant(DType type, int64_t k, const uint8_t* w, size_t w_stride, int64_t n,
                 const uint8_t* x, size_t x_stride, int64_t n_tokens, float* y, int64_t y_stride);

} // namespace folio::ref
