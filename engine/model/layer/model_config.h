#pragma once
// Hyper-parameters of a decoder model, read from GGUF metadata with llama.cpp's rules and traps
// (src/llama-model.cpp, src/llama-hparams.h): the "lite" q_lora rule, YaRN with the 0.1 log
// multiplier and fixed β_fast/β_slow, per-layer arrays, expert routing options, the deepseek32
// indexer keys, the kimi-linear per-layer KDA/MLA pattern, and our kimi-hybrid
// (docs/KIMI_HYBRID.md).

#include "folio/error.h"
#include "gguf/gguf_file.h"
#include "kernels/rope.h"
#include "model/layer/mixer_kind.h"

#include <cstdint>
#include <string>
#include <vector>

namespace folio {

enum class GatingFunc : uint32_t { Softmax = 1, Sigmoid = 2, SoftmaxWeights = 3 };

struct ModelConfig {
    std::string arch;          // "deepseek2", "deepseek32", "kimi-linear" or "kimi-hybrid"
    uint32_t n_layer_file = 0; // block_count (deepseek32: includes the MTP layers)
    uint32_t n_vocab = 0;
    uint32_t n_embd = 0;
    uint32_t n_layer = 0; // layers the decoder runs
    uint32_t n_ctx_train = 0;
    std::vector<uint32_t> n_head;    // per layer
    std::vector<uint32_t> n_head_kv; // per layer (MLA: 1; kimi-linear: 0 = KDA layer)
    std::vector<MixerKind> mixer;    // per layer (mixer_kind_of_layer)
    std::vector<uint32_t> n_ff;      // dense FFN size per layer
    float rms_eps = 1e-6f;

    // MLA (DeepSeek-V2, arXiv:2405.04434): q_lora_rank 0 = no q compression (attn_q).
    uint32_t q_lora_rank = 0;
    bool mla_rope = true; // false: NoPE MLA of kimi-linear / kimi-hybrid
    uint32_t kv_lora_rank = 0;
    uint32_t qk_nope = 0; // dn = key_length_mla - rope dims
    uint32_t qk_rope = 0; // dr
    uint32_t v_head = 0;  // dv

    // MoE (src/llama-graph.cpp, build_moe_ffn)
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

    // KDA (Kimi Linear): heads = n_head[il], d_k = d_v = kda_head_dim.
    uint32_t kda_head_dim = 0;
    uint32_t conv_kernel = 0; // W of the short convolution

    // DSA lightning indexer (DeepSeek-V3.2-Exp): top_k 0 = no indexer.
    uint32_t indexer_heads = 0;
    uint32_t indexer_head_dim = 0;
    uint32_t indexer_top_k = 0;
    RopeParams indexer_rope; // NEOX on the first qk_rope dims of each index head
    float indexer_eps = 1e-6f;

    // RoPE as the kernels take it (NORM layout, YaRN parameters) and the attention scale.
    RopeParams rope;
    float kq_scale = 1.0f;
    // The file's YaRN β keys (informative: llama.cpp ignores them for deepseek2).
    float yarn_beta_fast_file = 0.0f;
    float yarn_beta_slow_file = 0.0f;

    bool is_moe_layer(uint32_t il) const { return n_expert > 0 && il >= n_dense_lead; }
    bool is_kda_layer(uint32_t il) const { return mixer[il] == MixerKind::Kda; }
    bool has_indexer() const { return indexer_top_k > 0; }
    uint32_t qk_head() const { return qk_nope + qk_rope; }
    uint32_t kda_width(uint32_t il) const { return n_head[il] * kda_head_dim; } // P = H·D
};

// Reads the config of a deepseek2 / deepseek32 / kimi-linear / kimi-hybrid file. Errors name the
// key and the file.
Expected<ModelConfig> read_model_config(const gguf::File& file);

} // namespace folio
