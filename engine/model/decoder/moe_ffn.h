#pragma once
// Feed-forward sub-layers of the decoder: the dense SwiGLU MLP of the leading layers and the MoE
// with sigmoid routing, selection bias, group-limited top-k, weight normalization and scaling,
// and shared experts (src/llama-graph.cpp, build_moe_ffn).

#include "folio/error.h"
#include "model/decoder/token_ffn.h"
#include "model/layer/decoder_eval_types.h"
#include "model/layer/decoder_weights.h"

#include <cstdint>
#include <vector>

namespace folio {

// The routing decision for one token.
struct ExpertChoice {
    std::vector<int32_t> experts; // expert_used_count ids
    std::vector<float> weights;   // their (normalized, scaled) weights
};

// Routes one token from its router logits (n_expert values). `bias` may be null.
ExpertChoice route_token(const ModelConfig& c, const float* logits, const float* bias);

// y[t] = down(silu(gate·x[t]) ⊙ up·x[t]) for T rows of E floats.
Status dense_ffn(const KernelContext& kctx, const TensorView& gate, const TensorView& up,
                 const TensorView& down, const float* xn, int64_t T, int64_t E, FfnScratch& s,
                 float* out);

// MoE: routed experts (each runs once on the tokens routed to it) plus the shared experts.
Status moe_ffn(const ModelConfig& c, const DecoderLayer& L, const KernelContext& kctx,
               const float* xn, int64_t T, DecoderScratch& s, float* out);

// One token's MLPs from its router logits (n_expert values): its experts in ascending id
// order with their weights, then the shared experts (weight 1): what decode sums.
Status token_mlps(const ModelConfig& c, const DecoderLayer& L, const float* router,
                  std::vector<TokenMlp>& mlps);

} // namespace folio
