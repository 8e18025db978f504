#pragma once
// The MLA attention sub-layer (MODEL_SPEC.md §4, GGUF_LAYOUT.md §3.5, §4.3, §5.3): q / kv
// projections, RMSNorm of the latents, RoPE (none in kimi-linear's NoPE layers), the KV cache
// rows, attention in the naive or the absorbed form, the DSA top-k restriction when the layer
// carries an indexer, and the output projection.

#include "folio/error.h"
#include "model/decoder_eval_types.h"
#include "model/decoder_state.h"
#include "model/decoder_weights.h"

namespace folio {

// xn: [T][n_embd] normalized input rows; out: [T][n_embd]. Appends the T cache rows (and index
// keys) of layer `il`; the caller commits them after the last layer.
Status mla_attention(const ModelConfig& c, const DecoderLayer& L, uint32_t il, DecoderState& state,
                     const float* xn, int64_t T, const EvalOptions& opt, DecoderScratch& s,
                     float* out);

// FLOP estimates used by MlaForm::Auto to pick the cheaper form for T queries over n_kv keys.
double mla_naive_cost(const ModelConfig& c, uint32_t il, int64_t T, int64_t n_kv);
double mla_absorbed_cost(const ModelConfig& c, uint32_t il, int64_t T, int64_t n_kv);

} // namespace folio
