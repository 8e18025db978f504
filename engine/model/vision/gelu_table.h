#pragma once
// GELU as llama.cpp's CPU backend evaluates it (ggml/src/ggml-cpu/vec.h): the input is
// rounded to fp16 and looked up in a 65536-entry table holding fp16(gelu(h)) for every fp16 h;
// x <= -10 gives 0 and x >= 10 gives x. The table belongs to the model that uses it (no global
// state). Tanh form (clip.use_gelu = true) or quick form x·σ(1.702x) (use_gelu absent/false).

#include "kernels/kernel_context.h"

#include <cstdint>
#include <vector>

namespace folio::vision {

enum class GeluKind { Tanh, Quick };

struct GeluTable {
    GeluKind kind = GeluKind::Tanh;
    std::vector<float> values; // indexed by fp16 bit pattern
};

GeluTable make_gelu_table(GeluKind kind);

// y[i] = gelu(x[i]) through the table, n elements split across threads; y may alias x.
void gelu_fp16(const KernelContext& ctx, const GeluTable& table, const float* x, float* y,
               int64_t n);

// The same function evaluated in f32 without the table (tanh form).
void gelu_f32(const KernelContext& ctx, GeluKind kind, const float* x, float* y, int64_t n);

} // namespace folio::vision
