#pragma once
// MLA's decode step (one token, absorbed form, no DSA indexer) for a thread of a decode region
// (kernels/decode_team.h): mla_attention's numbers bit for bit, with four barriers below 128
// keys and six from there on instead of five to seven forks and joins.
//
// Steps of thread t of n, the barriers marked |:
//   [q_a; kv_a_mqa]·xn, t's share of the rows (xn: the thread's own normalized copy)      |
//   RMSNorm of q_a into t's own copy, its share of q_b's rows; thread 0 also normalizes
//   the latent, ropes k_pe, stores the cache row and takes the cache view                 |
//   fewer keys than kMlaSplitKeys: per share of the heads, RoPE of q_pe, W_UK, attention,
//   W_UV (attend_decode_by_heads' steps)                                                   |
//   more: per share of the heads RoPE and W_UK | a share of the keys | thread 0 merges |
//   t's share of W_UV's rows                                                               |
//   t's share of attn_output's rows, added to the residual x at once                       |

#include "folio/error.h"
#include "model/layer/decoder_eval_types.h"
#include "model/layer/decoder_state.h"
#include "model/layer/decoder_weights.h"
#include "model/layer/team_steps.h"

namespace folio {

// Whether layer il's decode can run in a region: MLA without an indexer, absorbed form.
bool mla_decode_team_fits(const ModelConfig& c, const DecoderLayer& L, uint32_t il,
                          const EvalOptions& opt);

// Before the region: the shared buffers for one token in layer il after pos0 cached rows.
void mla_decode_reserve(const ModelConfig& c, uint32_t il, int64_t pos0, int threads,
                        DecoderScratch& s);

// In the region, on every thread of tk.team: xn is this thread's normalized input; adds this
// thread's share of the output projection to x. Meets every barrier even after an error (kept in
// st, or thrown into steps.errors).
void mla_decode_member(const ModelConfig& c, const DecoderLayer& L, uint32_t il,
                       DecoderState& state, const float* xn, float* x, const KernelContext& tk,
                       const EvalOptions& opt, DecoderScratch& s, TeamSteps& steps, Status& st);

} // namespace folio
