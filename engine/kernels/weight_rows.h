#pragma once
// Checked row conversions and type checks through the weight-type registry (weight_types.h):
// the entry points for code outside the registry. tensor/ knows block geometry only; whether
// Folio computes with a type is this folder's say.
//
// dequantize_row / quantize_row: every type of the registry, through its reference dequantizer
// and weight quantizer (tensor/quant_rows.h; the rules of llama.cpp's *_ref quantizers, used
// when writing files).

#include "folio/error.h"
#include "tensor/dtype.h"
#include "tensor/tensor_view.h"

#include <cstdint>

namespace folio {

// True for the types dequantize_row / the matmul kernels accept (a row in the registry).
bool dtype_is_computable(DType type);

// n must be a multiple of the type's block size; src holds dtype_row_bytes(type, n) bytes.
Status dequantize_row(DType type, const void* src, float* dst, int64_t n);
Status quantize_row(DType type, const float* src, void* dst, int64_t n);

// Computable type, non-negative dimensions, ne[0] a multiple of the block size, data present.
Status check_tensor_view(const TensorView& t, const char* what);

} // namespace folio
