#pragma once
// The MLA attention sub-layer (DeepSeek-V2, arXiv:2405.04434; src/llama-graph.cpp): q / kv
// projections, RMSNorm of the latents, RoPE (none in kimi-linear's NoPE layers), the KV cache
// rows, attention in the naive or the absorbed form, the DSA top-k restriction when the layer
// carries an indexer, and the output projection.

#include "folio/error.h"
#include "model/layer/decoder_eval_types.h"
#include "model/layer/decoder_state.h"
#include "model/layer/decoder_weights.h"

namespace folio {

// xn: [T][n_embd] normalized input rows; out: [T][n_embd]. Appends the T cache rows (and index
// keys) of layer `il`; the caller commits them after the last layer.
Status mla_attention(const ModelConfig& c, const DecoderLayer& L, uint32_t il, DecoderState& state,
                     const float* xn, int64_t T, const EvalOptions& opt, DecoderScratch& s,
                     float* out);

// Multiply-add estimates of the two forms for T queries after pos0 cached rows (query t sees
// pos0 + t + 1 keys).
double mla_naive_cost(const ModelConfig& c, uint32_t il, int64_t T, int64_t pos0);
double mla_absorbed_cost(const ModelConfig& c, uint32_t il, int64_t T, int64_t pos0);

// With quantized attn_k_b / attn_v_b, MlaForm::Auto takes the naive form only for batches that
// start at least this deep. llama.cpp multiplies those weights with Q8-rounded activations (the
// absorbed form), which the naive form, over dequantized f32 weights, does not round: its logits
// then differ from llama.cpp's by that rounding (random-weight test models amplify it to ~0.1),
// while it is 1.7-2.4x faster at depth (docs/NUMERICS.md). Prompts and chats shorter than this
// keep llama.cpp's numbers; long documents get the fast form.
inline constexpr int64_t kNaiveQuantizedFromDepth = 4096;

// Decode: from this many keys the attention splits the keys over the threads, below it the
// heads. 128 against 512: attention 0.53 -> 0.43 ms/token over tg256 from an empty context
// (bench file, 2 threads); below 128 no gain was measured.
inline constexpr int64_t kMlaSplitKeys = 128;

// MlaForm::Auto's choice for a dense batch of T queries after pos0 cached rows: the naive form
// when T > 1 and it is the cheaper one, and, with quantized attn_k_b / attn_v_b (float_kv_b
// false), only from kNaiveQuantizedFromDepth on.
bool mla_auto_takes_naive(const ModelConfig& c, uint32_t il, int64_t T, int64_t pos0,
                          bool float_kv_b);

} // namespace folio
