#include "runtime/speculation.h"

#include "runtime/position_key.h"
#include "runtime/prompt_lookup.h"
#include "runtime/sampler.h"

#include <algorithm>

namespace folio {

Expected<std::vector<int32_t>> Drafter::propose(SpeculationMode mode, int max_draft,
                                                std::span<const int32_t> history,
                                                std::span<const uint64_t> cached, int32_t next,
                                                const DecoderHandle* draft_model,
                                                int64_t context_limit, int threads) {
    if (mode == SpeculationMode::PromptLookup) {
        PromptLookupParams p;
        p.max_draft = max_draft;
        return draft_prompt_lookup(history, p);
    }
    if (mode != SpeculationMode::DraftModel || !draft_model ||
        std::any_of(cached.begin(), cached.end(), is_image_key))
        return std::vector<int32_t>{};
    std::vector<int32_t> context(cached.begin(), cached.end());
    context.push_back(next);
    return draft_with_model(*draft_model, context, std::min(max_draft, 4), context_limit, threads);
}

std::unique_ptr<DecoderSequence> Drafter::release() {
    tokens_.clear();
    return std::move(seq_);
}

Expected<std::vector<int32_t>> Drafter::draft_with_model(const DecoderHandle& d,
                                                         const std::vector<int32_t>& context, int k,
                                                         int64_t context_limit, int threads) {
    if (!seq_)
        seq_ = new_sequence(d, context_limit);
    size_t common = 0;
    while (common < tokens_.size() && common < context.size() && tokens_[common] == context[common])
        ++common;
    if (common == context.size())
        --common; // re-evaluate the last token for its logits
    if (common < tokens_.size()) {
        if (!sequence_can_truncate_to(*seq_, static_cast<int64_t>(common)) ||
            !truncate_sequence(*seq_, static_cast<int64_t>(common))) {
            seq_ = new_sequence(d, context_limit);
            common = 0;
        }
        tokens_.resize(common);
    }
    std::vector<float> logits;
    FOLIO_CHECK(eval_tokens(d, *seq_, context.data() + common,
                            static_cast<int64_t>(context.size() - common), false, threads, logits));
    tokens_.assign(context.begin(), context.end());
    std::vector<int32_t> out;
    for (int i = 0; i < k; ++i) {
        const int32_t next = argmax(logits);
        out.push_back(next);
        if (i + 1 == k || sequence_length(*seq_) + 1 >= context_limit)
            break;
        FOLIO_CHECK(eval_tokens(d, *seq_, &next, 1, false, threads, logits));
        tokens_.push_back(next);
    }
    return out;
}

} // namespace folio
