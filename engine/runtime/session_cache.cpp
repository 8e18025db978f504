#include "runtime/session_cache.h"

#include "runtime/position_key.h"
#include "runtime/prompt_assembly.h"

#include <algorithm>

namespace folio {

int64_t SessionCache::reuse_prefix(const DecoderHandle& h, const AssembledPrompt& prompt,
                                   int64_t context_limit) {
    const int64_t total = static_cast<int64_t>(prompt.ids.size());
    if (!seq_)
        seq_ = new_sequence(h, context_limit);
    int64_t common = 0;
    const int64_t have = static_cast<int64_t>(keys_.size());
    while (common < have && common < total && keys_[common] == prompt.keys[common])
        ++common;
    if (common == total)
        --common; // the last prompt token is evaluated again for its logits
    if (common < have) {
        // Attention caches drop any suffix; recurrent (KDA) states rewind only to the checkpoint
        // taken at the end of the previous prompt, or start over.
        const int64_t checkpoint = sequence_checkpoint(*seq_);
        if (!sequence_can_truncate_to(*seq_, common))
            common = checkpoint >= 0 && checkpoint <= common ? checkpoint : 0;
        if (!truncate_sequence(*seq_, common)) {
            seq_ = new_sequence(h, context_limit);
            common = 0;
        }
        keys_.resize(static_cast<size_t>(common));
    }
    // The prefix cache may hold more of this prompt (another session's document, or blocks this
    // session already dropped): take its blocks instead of recomputing them.
    if (const int64_t adopted =
            adopt_cached_prefix(h, *seq_, prompt.keys.data(), total - 1, common);
        adopted > 0) {
        keys_.assign(prompt.keys.begin(), prompt.keys.begin() + adopted);
        common = adopted;
    }
    return common;
}

Status SessionCache::prefill(const DecoderHandle& h, const AssembledPrompt& prompt, int64_t from,
                             int64_t n, int threads, std::vector<float>& logits) {
    const bool has_image =
        std::any_of(prompt.image_rows.begin() + from, prompt.image_rows.begin() + from + n,
                    [](const float* r) { return r != nullptr; });
    if (has_image) {
        // Mixed rows: embed the chunk's tokens, then put the image rows in their places.
        const int64_t E = decoder_embedding_size(h);
        std::vector<float> rows(static_cast<size_t>(n * E));
        FOLIO_CHECK(embed_tokens(h, prompt.ids.data() + from, n, rows.data()));
        for (int64_t i = 0; i < n; ++i)
            if (const float* img = prompt.image_rows[from + i])
                std::copy(img, img + E, rows.begin() + i * E);
        FOLIO_CHECK(eval_embeddings(h, *seq_, rows.data(), n, false, threads, logits));
    } else {
        FOLIO_CHECK(eval_tokens(h, *seq_, prompt.ids.data() + from, n, false, threads, logits));
    }
    keys_.insert(keys_.end(), prompt.keys.begin() + from, prompt.keys.begin() + from + n);
    register_prefix(h, *seq_, keys_.data());
    return {};
}

void SessionCache::checkpoint() {
    checkpoint_sequence(*seq_);
}

Status SessionCache::eval(const DecoderHandle& h, std::span<const int32_t> tokens, bool all_logits,
                          int threads, std::vector<float>& logits) {
    FOLIO_CHECK(eval_tokens(h, *seq_, tokens.data(), static_cast<int64_t>(tokens.size()),
                            all_logits, threads, logits));
    for (int32_t id : tokens)
        keys_.push_back(token_key(id));
    return {};
}

Status SessionCache::keep(int64_t n) {
    FOLIO_CHECK(truncate_sequence(*seq_, n));
    keys_.resize(static_cast<size_t>(n));
    return {};
}

std::unique_ptr<DecoderSequence> SessionCache::release() {
    ++generation_;
    keys_.clear();
    return std::move(seq_);
}

std::unique_ptr<DecoderSequence> SessionCache::give_back(std::unique_ptr<DecoderSequence> seq,
                                                         uint64_t lent_generation) {
    if (seq_ || generation_ != lent_generation)
        return seq;
    seq_ = std::move(seq);
    return nullptr;
}

std::unique_ptr<DecoderSequence> SessionCache::replace(const DecoderHandle& h,
                                                       std::unique_ptr<DecoderSequence> seq,
                                                       std::vector<uint64_t> keys) {
    ++generation_;
    std::unique_ptr<DecoderSequence> old = std::move(seq_);
    seq_ = std::move(seq);
    keys_ = std::move(keys);
    register_prefix(h, *seq_, keys_.data());
    return old;
}

size_t SessionCache::kv_bytes() const {
    return seq_ ? sequence_bytes(*seq_) : 0;
}

size_t SessionCache::scratch_bytes() const {
    return seq_ ? sequence_scratch_bytes(*seq_) : 0;
}

void SessionCache::block_map(SessionBlockMap& out) const {
    if (seq_)
        sequence_block_map(*seq_, out);
}

} // namespace folio
