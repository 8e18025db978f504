#pragma once
// The tensors of an MLA layer and of its optional DSA lightning indexer (names as in
// src/llama-arch.cpp, shapes as src/llama-model.cpp loads them), as views into the mapped file.

#include "model/layer/mixer_weights.h"
#include "tensor/tensor_view.h"

namespace folio {

// The DSA lightning indexer of an MLA layer. q_b reads the q-LoRA latent (or, in a kimi-hybrid
// layer without q-LoRA, the normalized hidden state).
struct IndexerWeights {
    TensorView q_b;                 // [qr or E, H_I·d_I]
    TensorView k;                   // [E, d_I]
    TensorView k_norm, k_norm_bias; // LayerNorm [d_I], F32
    TensorView proj;                // [E, H_I] (any matmul type)
};

struct MlaWeights : MixerWeights {
    TensorView q_a, q_a_norm, q_b; // q_lora_rank > 0
    TensorView q;                  // q_lora_rank == 0
    TensorView kv_a_mqa, kv_a_norm;
    TensorView k_b, v_b;    // [dn, kr, H], [kr, dv, H]
    IndexerWeights indexer; // data == nullptr without an indexer
};

} // namespace folio
