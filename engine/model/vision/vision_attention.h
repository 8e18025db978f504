#pragma once
// The attention of a MoonViT block as llama.cpp's kimivl graph computes it
// (tools/mtmd/clip.cpp): 2D RoPE in llama.cpp's split layout and full
// bidirectional softmax attention over all patches of one image.

#include "folio/error.h"
#include "kernels/kernel_context.h"

#include <cstdint>

namespace folio::vision {

// 2D RoPE, in place on x = n_tokens rows of n_head·head_dim floats: per head, elements
// [0, head_dim/2) are rotated in adjacent pairs by cols[t]·θ^(−2i/(head_dim/2)) and elements
// [head_dim/2, head_dim) by rows[t]·θ^(−2i/(head_dim/2)).
Status rope_2d(const KernelContext& ctx, float* x, int64_t n_tokens, int64_t n_head,
               int64_t head_dim, const int32_t* cols, const int32_t* rows, float theta);

// out[t] = concat over heads h of Σ_s softmax_s(q_h[t]·k_h[s]·scale) v_h[s]. q, k, v and out
// are n_tokens rows of n_head·head_dim floats (out must not alias the inputs).
Status attention(const KernelContext& ctx, const float* q, const float* k, const float* v,
                 float* out, int64_t n_tokens, int64_t n_head, int64_t head_dim, float scale);

} // namespace folio::vision
