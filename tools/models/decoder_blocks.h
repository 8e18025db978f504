#pragma once
// Pieces shared by the decoder generators (deepseek2, deepseek32, kimi-linear, kimi-hybrid):
// the MoE metadata keys and the FFN tensors of one block, in llama.cpp's names and ne order
// (src/llama-arch.cpp, src/llama-model.cpp).

#include "gguf/gguf_writer.h"
#include "make_model.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace folio::tools {

struct MoeShape {
    uint32_t experts = 0, experts_used = 0, experts_shared = 0;
    uint32_t ff_exp = 0;       // expert FFN width
    uint32_t dense_layers = 0; // leading dense blocks
    float weights_scale = 2.5f;
};

// {prefix}expert_count ... expert_gating_func (sigmoid routing, normalized weights).
void write_moe_keys(gguf::Writer& w, const std::string& prefix, const MoeShape& m);

using AddTensor =
    std::function<void(std::string name, std::vector<int64_t> ne, TensorPlan::Init init)>;

// The FFN of block prefix `b` ("blk.N."): SwiGLU of width ff_dense for the leading dense blocks,
// else router, selection bias, routed experts and shared experts.
void add_ffn_tensors(const AddTensor& add, const std::string& b, int64_t n_embd, bool dense,
                     int64_t ff_dense, const MoeShape& m);

} // namespace folio::tools
