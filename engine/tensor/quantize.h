#pragma once
// Row conversions between f32 and the stored tensor types (ggml/src/ggml-quants.c).
//
// dequantize_row / quantize_row: every type of the weight-type registry (kernels/weight_types.h),
// through its reference dequantizer and weight quantizer (tensor/quant_rows.h; the rules of
// llama.cpp's *_ref quantizers, used when writing files).
// The run-time activation quantizers (ggml-cpu's quantize_row_q8_*) live here too because the
// reference kernels, the AVX2 kernels and the tests must all agree on them bit for bit.

#include "folio/error.h"
#include "tensor/dtype.h"

#include <cstdint>

namespace folio {

// n must be a multiple of the type's block size; src holds dtype_row_bytes(type, n) bytes.
Status dequantize_row(DType type, const void* src, float* dst, int64_t n);
Status quantize_row(DType type, const float* src, void* dst, int64_t n);

// True for the types dequantize_row / the matmul kernels accept.
bool dtype_is_computable(DType type);

// llama.cpp's nearest_int: the float "magic number" trick (adds 1.5·2^23), i.e. round to
// nearest with ties to even under the default rounding mode. Valid for |x| < 2^22.
int nearest_int(float x);

// Activation quantization to Q8_0 as the SIMD CPU path does it: amax = max|x|,
// d = amax/127 stored as fp16, id = amax != 0 ? 127/amax : 0, qs = round-half-even(x·id).
// n is a multiple of 32.
void quantize_row_q8_0_act(const float* src, void* dst, int64_t n);
// Activation quantization to Q8_1 (Q4_1 / Q5_1 weights), as ggml-cpu's AVX2
// quantize_row_q8_1: the Q8_0 activation rule for d and qs, plus s = fp16(d·Σ qs) with the
// unrounded fp32 d. n is a multiple of 32.
void quantize_row_q8_1_act(const float* src, void* dst, int64_t n);
// Activation quantization to Q8_K: max = signed value of largest magnitude,
// iscale = -127/max, qs = min(127, nearest_int(iscale·x)), d = 1/iscale, bsums = sums of 16.
// All-zero blocks get d = 0 and zero quants. n is a multiple of 256.
void quantize_row_q8_k(const float* src, void* dst, int64_t n);

} // namespace folio
