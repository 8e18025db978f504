#pragma once
// Numerically stable softmax over rows, in place: x_r = softmax(x_r·scale + mask_r). Rows whose
// every entry is -inf after masking become all zeros.

#include "kernels/kernel_context.h"

#include <cstdint>

namespace folio {

// mask may be null; otherwise row r adds mask + r·mask_stride (mask_stride 0 = one shared row).
void softmax(const KernelContext& ctx, float* x, int64_t n, int64_t n_rows, int64_t stride,
             float scale = 1.0f, const float* mask = nullptr, int64_t mask_stride = 0);

// Additive causal mask for n_q query rows at positions q_pos0 + r against n_kv keys at
// positions 0..n_kv-1: 0 where key position ≤ query position, -inf elsewhere. mask has
// n_q·n_kv floats (row stride n_kv).
void fill_causal_mask(float* mask, int64_t n_q, int64_t n_kv, int64_t q_pos0);

} // namespace folio
