#pragma once
// Prompt-lookup drafting for speculative decoding: when the last n tokens of the context also
// occur earlier (a quote of the report being analysed, a repeated name), the tokens that
// followed that earlier occurrence are a good guess for what comes next. Verification by the
// model decides; drafting costs no model evaluation.

#include <cstdint>
#include <span>
#include <vector>

namespace folio {

struct PromptLookupParams {
    int max_ngram = 4; // longest suffix to match first
    int min_ngram = 2; // give up below this
    int max_draft = 8; // tokens proposed per step
};

// Draft tokens for `context` (prompt + generated so far); empty when no earlier match. The most
// recent earlier occurrence of the longest matching suffix wins.
std::vector<int32_t> draft_prompt_lookup(std::span<const int32_t> context,
                                         const PromptLookupParams& params = {});

} // namespace folio
