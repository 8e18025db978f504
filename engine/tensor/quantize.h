#pragma once
// Row conversions between f32 and the stored tensor types (spec/GGUF_LAYOUT.md §2).
//
// dequantize_row: F32 F16 BF16 Q8_0 Q4_0 Q4_K Q6_K MXFP4, exactly as §2.2-§2.7 specify.
// quantize_row:   reference quantizers for F16 BF16 Q8_0 Q4_0 Q4_K Q6_K MXFP4 (and F32 copy),
//                 following the rules of llama.cpp's *_ref quantizers as §2.3-§2.7 describe them
//                 (these are the weight quantizers used when writing files).
// The run-time activation quantizers (§2.10) live here too because the reference kernels, the
// AVX2 kernels and the tests must all agree on them bit for bit.

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

// §2.10 activation quantization to Q8_0 as the SIMD CPU path does it: amax = max|x|,
// d = amax/127 stored as fp16, id = amax != 0 ? 127/amax : 0, qs = round-half-even(x·id).
// n is a multiple of 32.
void quantize_row_q8_0_act(const float* src, void* dst, int64_t n);
// §2.8 activation quantization to Q8_K: max = signed value of largest magnitude,
// iscale = -127/max, qs = min(127, nearest_int(iscale·x)), d = 1/iscale, bsums = sums of 16.
// All-zero blocks get d = 0 and zero quants. n is a multiple of 256.
void quantize_row_q8_k(const float* src, void* dst, int64_t n);

} // namespace folio
