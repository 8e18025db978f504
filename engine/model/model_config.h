#pragma once
// Hyper-parameters of a decoder model, read from GGUF metadata with llama.cpp's rules and traps
// (spec/GGUF_LAYOUT.md §3.1-§3.3, §9): the "lite" q_lora rule, YaRN with the 0.1 log
// multiplier and fixed β_fast/β_slow, per-layer arrays, expert routing options.

#include "folio/error.h"
#include "gguf/gguf_file.h"
#include "kernels/rope.h"

#include <cstdint>
#include <string>
#include <vector>

namespace folio {

enum class GatingFunc : uint32_t { Softmax = 1, Sigmoid = 2, SoftmaxWeights = 3 };

struct ModelConfig {
    std::string arch; // "deepseek2", ...
    uint32_t n_vocab = 0;
    uint32_t n_embd = 0;
    uint32_t n_layer = 0;
    uint32_t n_ctx_train = 0;
    std::vector<uint32_t> n_head;    // per layer
    std::vector<uint32_t> n_head_kv; // per layer (MLA: 1)
    std::vector<uint32_t> n_ff;      // dense FFN size per layer
    float rms_eps = 1e-6f;

    // MLA (§3.1): q_lora_rank 0 = no q compression (attn_q).
    uint32_t q_lora_rank = 0;
    uint32_t kv_lora_rank = 0;
    uint32_t qk_nope = 0; // dn = key_length_mla - rope dims
    uint32_t qk_rope = 0; // dr
    uint32_t v_head = 0;  // dv

    // MoE (§3.6)
    uint32_t n_expert = 0;
    uint32_t n_expert_used = 0;
    uint32_t n_expert_shared = 0;
    uint32_t n_ff_exp = 0;
    uint32_t n_dense_lead = 0;
    uint32_t n_expert_group = 1;
    uint32_t n_expert_group_used = 1;
    float expert_weights_scale = 0.0f; // 0 = no scaling
    bool expert_weights_norm = false;
    GatingFunc gating = GatingFunc::Softmax;

    // RoPE as the kernels take it (NORM layout, YaRN parameters) and the attention scale.
    RopeParams rope;
    float kq_scale = 1.0f;
    // The file's YaRN β keys (informative: llama.cpp ignores them for deepseek2, §3.3).
    float yarn_beta_fast_file = 0.0f;
    float yarn_beta_slow_file = 0.0f;

    bool is_moe_layer(uint32_t il) const { return n_expert > 0 && il >= n_dense_lead; }
    uint32_t qk_head() const { return qk_nope + qk_rope; }
};

// Reads the config of a deepseek2-family file. Errors name the key and the file.
Expected<ModelConfig> read_model_config(const gguf::File& file);

} // namespace folio
