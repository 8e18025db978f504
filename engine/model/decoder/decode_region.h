#pragma once
// Decode as one parallel region per token (kernels/decode_team.h; docs in
// engine/kernels/README.md, "Decode as one region"): the token's layers run on one team of
// threads that meets at barriers instead of forking and joining a team per kernel.
//
// Per layer, thread t of n (barriers marked |):
//   RMSNorm of x into t's own copy (every thread, redundantly: no barrier waits for it)
//   the mixer's step (LayerMixer::decode_member: MLA's four or six barriers, KDA's two), its
//   output added to x for t's share of the rows                                             |
//   RMSNorm of x into t's own copy; MoE: t's share of the router's rows                      |
//   the routing, on every thread for itself; token_ffn_member: its shares of the gates and
//   ups | of the downs and of the weighted sum, added to x                                  |
// The numbers are those of the per-kernel regions bit for bit (the same row kernels on the
// same inputs; tests/engine/model/test_decode_region.cpp).

#include "folio/error.h"
#include "model/decoder/decoder_model.h"

namespace folio {

// Whether a step of n tokens runs as one region: one token, several threads, opt.decode_region,
// and a mixer that can (LayerMixer::decodes_in_team) in every layer.
bool decode_region_fits(const DecoderModel& model, int64_t n, const EvalOptions& opt);

// The layer stack on the token in s.x ([n_embd]), as one region of opt.kernels.n_threads
// threads. On an error the layers' cache rows and states are as a failed eval leaves them.
Status decode_layers_in_region(const DecoderModel& model, DecoderState& state, DecoderScratch& s,
                               const EvalOptions& opt);

} // namespace folio
