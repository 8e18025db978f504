#pragma once
// Resizing the learned position-embedding table to the patch grid (tools/mtmd/clip.cpp):
// bilinear interpolation with antialiasing and half-pixel centres, i.e.
// F.interpolate(mode="bilinear", align_corners=False, antialias=True), computed the way ggml's
// CPU upscale op does it (triangle filter widened by 1/scale when shrinking, weights
// renormalised per output cell, float arithmetic).

#include "kernels/kernel_context.h"

#include <cstdint>
#include <vector>

namespace folio::vision {

// table: src_h·src_w rows of n_embd floats, row index row·src_w + col. Returns dst_h·dst_w rows
// of n_embd floats in the same order. Identity (a copy) when the sizes are equal.
std::vector<float> resize_pos_embd(const KernelContext& ctx, const float* table, int64_t n_embd,
                                   int src_w, int src_h, int dst_w, int dst_h);

} // namespace folio::vision
