#pragma once
// The DSA lightning indexer of an MLA layer (DeepSeek-V3.2-Exp), as llama.cpp
// computes it:
//   k^I_s  = LayerNorm_{1e-6}(attn_k·x_s)·w + b                     (one d_I key per token, cached)
//   q^I_t  = indexer.attn_q_b · (q-LoRA latent of t)  → H_I heads of d_I
//   both split [rope | nope] with the rope part FIRST, NEOX RoPE at their positions
//   w_t    = (proj·x_t) / sqrt(d_I·H_I)
//   I(t,s) = Σ_h w_t,h · ReLU(q^I_t,h · k^I_s)                       for s ≤ t
//   top    = the top_k keys by I(t,·) (O(n) selection; ties: the lower position wins)
// The keys are cached as f32, f16 or q8_0 (IndexKeyCache); with q8_0 keys the queries are
// quantized to int8 too (kernels/index_score.h).
// llama.cpp also rotates q and k by an orthonormal Hadamard matrix, which leaves the scores
// unchanged in exact arithmetic; we skip it. A query that sees at most top_k keys selects all of
// them, i.e. it is dense MLA.

#include "folio/error.h"
#include "model/attention/index_key_cache.h"
#include "model/layer/decoder_eval_types.h"
#include "model/layer/decoder_weights.h"
#include "model/mixers/mla_weights.h"

namespace folio {

// Appends the index keys of the T new tokens to `keys` (the layer's own, a one-layer cache:
// mixers/dsa_index_keys.h) and selects the keys of every
// query that sees more than top_k of them: for t ≥ the returned n_dense, query t attends to
// s.selected[s.sel_offset[t] .. s.sel_offset[t + 1]) (ascending positions). q_in: the rows that
// feed indexer.attn_q_b (q-LoRA latents, q_in_dim floats each); xn: the normalized hidden rows.
Expected<int64_t> dsa_index(const ModelConfig& c, const IndexerWeights& ix, IndexKeyCache& keys,
                            const float* q_in, int64_t q_in_dim, const float* xn, int64_t T,
                            int64_t pos0, const KernelContext& kctx, DecoderScratch& s);

} // namespace folio
