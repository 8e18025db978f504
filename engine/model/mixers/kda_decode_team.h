#pragma once
// KDA's decode step (one token, recurrent form) for a thread of a decode region
// (kernels/decode_team.h): kda_attention's numbers bit for bit, with two barriers instead of
// four to six forks and joins.
//
// Steps of thread t of n, the barriers marked |:
//   [q; k; v; f_a; g_a; β]·xn, t's share of the rows (xn: the thread's own normalized copy)   |
//   for t's share of the heads, everything that stays within a head: the short convolution
//   and its state, SiLU, the L2 norms and q's scale, the heads' rows of f_b and the decay, β,
//   the delta rule on the head's state, the heads' rows of g_b, the output RMSNorm and gate
//   t's share of attn_output's rows, added to the residual x at once                         |
// Heads are split at multiples of the head size: the element-wise vector kernels see the same
// lanes as over the whole row, so the layer fits only when the head size is a multiple of 16.

#include "folio/error.h"
#include "model/layer/decoder_eval_types.h"
#include "model/layer/decoder_state.h"
#include "model/layer/decoder_weights.h"
#include "model/layer/team_steps.h"

namespace folio {

// Whether a KDA layer can run in a region: recurrent form, head size a multiple of 16.
bool kda_decode_team_fits(const ModelConfig& c, const EvalOptions& opt);

// In the region, on every thread of tk.team (see mla_decode_team.h for the contract).
void kda_decode_member(const ModelConfig& c, const DecoderLayer& L, uint32_t il,
                       DecoderState& state, const float* xn, float* x, const KernelContext& tk,
                       const EvalOptions& opt, DecoderScratch& s, TeamSteps& steps, Status& st);

// Before the region: the shared buffers of layer il.
void kda_decode_reserve(const ModelConfig& c, uint32_t il, DecoderScratch& s);

} // namespace folio
