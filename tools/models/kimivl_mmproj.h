#pragma once
// Random-weight kimivl mmproj files (`clip` / projector `kimivl`) in exactly llama.cpp's layout
// (tools/mtmd/clip.cpp's keys and tensors, all F32), the vision half of a Kimi-VL pair.
//
//   tiny:  E 64, FFN 128, 2 blocks, 2 heads: the shape of the conformance
//          kimivl-mmproj-f32.gguf (same keys, key order, tensor names, shapes and types).
//   small: E 384, FFN 1536, 6 blocks, 6 heads (head size 64), patch 14, 2x2 merge, 64x64
//          position table: a realistic configuration of a few tens of MB for benchmarks.
//
// Weights are N(0, 1/fan_in), norms 1 + N(0, 0.1²), biases N(0, 0.02²), the position table
// N(0, 0.02²), deterministic in (seed, tensor name).

#include "folio/error.h"

#include <cstdint>
#include <string>

namespace folio::tools {

// n_embd_text is clip.vision.projection_dim, the hidden size of the paired text model.
Status make_kimivl_mmproj(const std::string& preset, uint32_t n_embd_text, uint64_t seed,
                          const std::string& out);

} // namespace folio::tools
