#pragma once
// The MLA attention sub-layer of deepseek2 (MODEL_SPEC.md §4, GGUF_LAYOUT.md §3.5): q / kv
// projections, RMSNorm of the latents, RoPE, the KV cache rows, attention in the naive or the
// absorbed form, and the output projection.

#include "folio/error.h"
#include "model/deepseek2_model.h"

namespace folio {

// xn: [T][n_embd] normalized input rows; out: [T][n_embd]. Appends the T cache rows of layer
// `il` (the caller commits them after the last layer).
Status mla_attention(const ModelConfig& c, const Deepseek2Layer& L, uint32_t il, MlaCache& cache,
                     const float* xn, int64_t T, MlaForm form, const KernelContext& kctx,
                     Deepseek2Scratch& s, float* out);

// FLOP estimates used by MlaForm::Auto to pick the cheaper form for T queries over n_kv keys.
double mla_naive_cost(const ModelConfig& c, uint32_t il, int64_t T, int64_t n_kv);
double mla_absorbed_cost(const ModelConfig& c, uint32_t il, int64_t T, int64_t n_kv);

} // namespace folio
