#pragma once
// llama-quantize's per-tensor type mixture for the k-quant and IQ4_XS file types (llama.cpp
// src/llama-quant.cpp, llama_tensor_get_type and tensor_type_fallback, no importance matrix):
// the file type's base type for most weights, more bits for the output head, for ffn_down and
// attn_v-like tensors in the layers use_more_bits picks, and, where a row is not a multiple of
// 256, the fallbacks Q4_K -> Q5_0, Q5_K -> Q5_1, Q6_K -> Q8_0, Q3_K -> Q4_0, IQ4_XS -> IQ4_NL
// (F16 when even those do not fit). Decisions depend on the tensors seen before (counters), so
// one LlamaMix walks a model's tensors in file order.

#include "tensor/dtype.h"

#include <cstdint>
#include <string>

namespace folio::tools {

// llama.cpp's LLAMA_FTYPE numbers of the supported mixtures.
enum class LlamaFtype : uint32_t {
    Q3_K_M = 12,
    Q4_K_M = 15,
    Q5_K_M = 17,
    Q6_K = 18,
    IQ4_XS = 30,
};

struct LlamaMixModel {
    int n_layer = 0;             // {arch}.block_count
    int n_expert = 0;            // {arch}.expert_count (0 or 1: dense)
    int n_gqa = 1;               // attention heads per KV head (layer 0)
    int n_attention_wv = 0;      // attn_v / attn_qkv / attn_kv_b tensors in the file
    bool tied_embeddings = true; // no output.weight: token_embd doubles as the head
};

class LlamaMix {
public:
    LlamaMix(LlamaFtype ftype, LlamaMixModel model) : ftype_(ftype), m_(model) {}
    // The type for a quantizable weight (the caller has already kept norms, router, etc.);
    // call once per such tensor in file order.
    DType type_for(const std::string& name, int64_t ne0);

private:
    LlamaFtype ftype_;
    LlamaMixModel m_;
    int i_attention_wv_ = 0;
    int i_ffn_down_ = 0;
};

DType llama_ftype_base_type(LlamaFtype ftype);

// The layer number of a llama.cpp tensor name ("blk.N."), or -1 for tensors outside the layers.
int llama_layer_of(const std::string& name);

} // namespace folio::tools
