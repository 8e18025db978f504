#pragma once
// The sampler's candidate order: token ids by logit, largest first, ties by the lower id.
//
// Sampling with a temperature but without top-k ordered the whole vocabulary each token with a
// comparison sort on ids (std::partial_sort over 32,000 ids, each comparison two indirect loads):
// 19 % of the samples of `generate` at the CLI's defaults on the bench file, one core busy while
// the other waited, and a 164K-token vocabulary costs five times as much. A stable radix sort on
// the logits' bits gives the same order in a few linear passes.

#include <cstdint>
#include <span>
#include <vector>

namespace folio {

// Working storage of order_candidates, kept from call to call.
struct CandidateScratch {
    std::vector<uint64_t> a, b;
};

// Fills `ids` with 0 .. n-1 ordered by logits[id] descending, equal logits by ascending id (-0
// equals +0, NaN after everything, -inf before NaN).
void order_candidates(std::span<const float> logits, std::vector<int32_t>& ids,
                      CandidateScratch& scratch);

} // namespace folio
