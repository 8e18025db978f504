#pragma once
// The tensors of a KDA layer (src/llama-model.cpp), as views into the mapped file: P = H·D.

#include "model/layer/mixer_weights.h"
#include "tensor/tensor_view.h"

namespace folio {

struct KdaWeights : MixerWeights {
    TensorView q, k, v;                // [E, P]
    TensorView conv_q, conv_k, conv_v; // [W, 1, P], F32
    TensorView f_a, f_b;               // [E, D], [D, P]
    TensorView dt_bias;                // [P], F32
    TensorView a;                      // [1, H], F32, already −exp(A_log)
    TensorView beta;                   // [E, H]
    TensorView g_a, g_b;               // [E, D], [D, P]
    TensorView o_norm;                 // [D], F32
};

} // namespace folio
