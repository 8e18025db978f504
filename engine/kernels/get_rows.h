#pragma once
// Embedding gather: rows of a weight of any supported type, selected by id, dequantized to f32.

#include "folio/error.h"
#include "kernels/kernel_context.h"
#include "tensor/tensor_view.h"

#include <cstdint>

namespace folio {

// out row i (stride out_stride floats) = dequantized row ids[i] of w (ne [K, V]). Any id outside
// [0, V) is an InvalidArgument error naming it, and nothing is written.
Status get_rows(const KernelContext& ctx, const TensorView& w, const int32_t* ids, int64_t n_ids,
                float* out, int64_t out_stride);

} // namespace folio
