#pragma once
// The KDA token mixer of a kimi-linear / kimi-hybrid layer (Kimi Linear, as
// llama.cpp builds it): q/k/v projections, depthwise causal short convolution with its decode
// state, SiLU, per-head L2 norm (x / max(‖x‖, rms_norm_eps), as llama.cpp), the decay gate g =
// ssm_a·softplus(f_b·f_a·x + dt_bias), β = σ(ssm_beta·x), the gated delta rule, the gated RMSNorm
// output and the output projection.

#include "folio/error.h"
#include "model/layer/decoder_eval_types.h"
#include "model/layer/decoder_state.h"
#include "model/layer/decoder_weights.h"

namespace folio {

// xn: [T][n_embd] normalized input rows; out: [T][n_embd]. Advances layer il's KDA state.
Status kda_attention(const ModelConfig& c, const DecoderLayer& L, uint32_t il, DecoderState& state,
                     const float* xn, int64_t T, const EvalOptions& opt, DecoderScratch& s,
                     float* out);

// The causal depthwise short convolution (kernel W) on T rows of P channels, in place on x (raw
// projections in, convolved values out, no activation). conv_state holds the W−1 previous raw
// rows (oldest first) and is advanced to the last W−1 raw rows. weight: [P][W], tap W−1 = the
// current token. `ext` is scratch.
void short_conv(float* x, int64_t T, int64_t P, const float* weight, int64_t W, float* conv_state,
                std::vector<float>& ext);

} // namespace folio
