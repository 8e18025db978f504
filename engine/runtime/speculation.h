#pragma once
// Speculative decoding's drafts for one session (folio/engine.h SpeculationMode): prompt lookup
// (runtime/prompt_lookup.h) needs no state; the draft model keeps its own sequence of the
// session's text, in step with the main one. The main model verifies every draft token, so
// greedy output is the same as without speculation. Worker thread only.

#include "folio/engine.h"
#include "folio/error.h"
#include "runtime/decoder_adapter.h"

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace folio {

class Drafter {
public:
    // Up to `max_draft` tokens to verify after `next`, the token decode just sampled:
    // `history` is the prompt and answer so far (ending with `next`), `cached` the keys of what
    // the session's cache holds (before `next`). The draft model (`draft_model`, null when none
    // is loaded) reads text only: nothing is drafted over image rows.
    Expected<std::vector<int32_t>> propose(SpeculationMode mode, int max_draft,
                                           std::span<const int32_t> history,
                                           std::span<const uint64_t> cached, int32_t next,
                                           const DecoderHandle* draft_model, int64_t context_limit,
                                           int threads);

    // Forgets the draft model's sequence, returned to be freed on the worker.
    std::unique_ptr<DecoderSequence> release();

private:
    // Greedy draft of up to k tokens by the draft model continuing `context`: only what changed
    // since the last call is evaluated (everything the first time).
    Expected<std::vector<int32_t>> draft_with_model(const DecoderHandle& d,
                                                    const std::vector<int32_t>& context, int k,
                                                    int64_t context_limit, int threads);

    std::unique_ptr<DecoderSequence> seq_;
    std::vector<int32_t> tokens_; // what seq_ holds
};

} // namespace folio
