#pragma once
// The tensors of a deepseek2 model as views into the mmapped GGUF file, with every shape
// checked against the config at load (GGUF_LAYOUT.md §3.4). A missing tensor or a shape that
// contradicts the metadata is an error naming the tensor.

#include "folio/error.h"
#include "gguf/gguf_file.h"
#include "model/model_config.h"
#include "tensor/tensor_view.h"

#include <vector>

namespace folio {

struct Deepseek2Layer {
    TensorView attn_norm;
    TensorView q_a, q_a_norm, q_b; // q_lora_rank > 0
    TensorView q;                  // q_lora_rank == 0
    TensorView kv_a_mqa, kv_a_norm;
    TensorView k_b, v_b; // [dn, kr, H], [kr, dv, H]
    TensorView attn_output;
    TensorView ffn_norm;
    // dense layers
    TensorView ffn_gate, ffn_up, ffn_down;
    // MoE layers
    TensorView gate_inp, exp_probs_b; // exp_probs_b.data == nullptr when absent
    TensorView gate_exps, up_exps, down_exps;
    TensorView gate_shexp, up_shexp, down_shexp; // data == nullptr when no shared experts
};

struct Deepseek2Weights {
    TensorView token_embd;
    TensorView output_norm;
    TensorView output; // token_embd when tied
    std::vector<Deepseek2Layer> layers;
};

Expected<Deepseek2Weights> bind_deepseek2_weights(const gguf::File& file, const ModelConfig& c);

} // namespace folio
