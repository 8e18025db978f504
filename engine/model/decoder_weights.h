#pragma once
// The tensors of a decoder model (deepseek2, deepseek32, kimi-linear, kimi-hybrid) as views into
// the mmapped GGUF file, with every shape checked against the config at load (GGUF_LAYOUT.md
// §3.4, §4.2, §5.2, docs/KIMI_HYBRID.md). A missing tensor or a shape that contradicts the
// metadata is an error naming the tensor.

#include "folio/error.h"
#include "gguf/gguf_file.h"
#include "model/model_config.h"
#include "tensor/tensor_view.h"

#include <vector>

namespace folio {

// The DSA lightning indexer of an MLA layer (GGUF_LAYOUT §4.2). q_b reads the q-LoRA latent
// (or, in a kimi-hybrid layer without q-LoRA, the normalized hidden state).
struct IndexerWeights {
    TensorView q_b;                 // [qr or E, H_I·d_I]
    TensorView k;                   // [E, d_I]
    TensorView k_norm, k_norm_bias; // LayerNorm [d_I]
    TensorView proj;                // [E, H_I] (any matmul type)
};

// A KDA layer (GGUF_LAYOUT §5.2): P = H·D.
struct KdaWeights {
    TensorView q, k, v;                // [E, P]
    TensorView conv_q, conv_k, conv_v; // [W, 1, P], F32
    TensorView f_a, f_b;               // [E, D], [D, P]
    TensorView dt_bias;                // [P], F32
    TensorView a;                      // [1, H], F32, already −exp(A_log) (trap 16)
    TensorView beta;                   // [E, H]
    TensorView g_a, g_b;               // [E, D], [D, P]
    TensorView o_norm;                 // [D], F32
};

struct DecoderLayer {
    TensorView attn_norm;
    // MLA layers
    TensorView q_a, q_a_norm, q_b; // q_lora_rank > 0
    TensorView q;                  // q_lora_rank == 0
    TensorView kv_a_mqa, kv_a_norm;
    TensorView k_b, v_b;    // [dn, kr, H], [kr, dv, H]
    IndexerWeights indexer; // data == nullptr without an indexer
    // KDA layers
    KdaWeights kda;
    TensorView attn_output; // both mixers
    TensorView ffn_norm;
    // dense layers
    TensorView ffn_gate, ffn_up, ffn_down;
    // MoE layers
    TensorView gate_inp, exp_probs_b; // exp_probs_b.data == nullptr when absent
    TensorView gate_exps, up_exps, down_exps;
    TensorView gate_shexp, up_shexp, down_shexp; // data == nullptr when no shared experts
};

struct DecoderWeights {
    TensorView token_embd;
    TensorView output_norm;
    TensorView output; // token_embd when tied
    std::vector<DecoderLayer> layers;
};

Expected<DecoderWeights> bind_decoder_weights(const gguf::File& file, const ModelConfig& c);

} // namespace folio
