#pragma once
// The run-time activation quantizers (ggml-cpu's quantize_row_q8_*, ggml/src/ggml-quants.c):
// the reference kernels, the AVX2 kernels and the tests must all agree on them bit for bit.
// The checked row conversions of every weight type (dequantize_row / quantize_row) go through
// the weight-type registry: kernels/weight_rows.h.

#include <cstdint>

namespace folio {

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
