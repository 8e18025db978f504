#pragma once
// What one session holds of its conversation: the model's sequence (KV cache, recurrent state)
// and the key of every position in it (position_key.h), kept in step. A new prompt reuses the
// longest common prefix, from here or from the model's prefix cache (cache/prefix_index.h), and
// only the rest is prefilled. Worker thread only, except release() under the engine's lock.

#include "folio/cache.h"
#include "folio/error.h"
#include "runtime/decoder_adapter.h"

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace folio {

struct AssembledPrompt;

class SessionCache {
public:
    bool has_sequence() const { return seq_ != nullptr; }
    const std::vector<uint64_t>& keys() const { return keys_; }
    int64_t length() const { return sequence_length(*seq_); } // with a sequence

    // Prepares the cache for `prompt`: keeps (or adopts from the prefix cache) the longest
    // prefix it can and returns its length, always less than the prompt's (the last position is
    // evaluated again for its logits). Makes the sequence when there is none.
    int64_t reuse_prefix(const DecoderHandle& h, const AssembledPrompt& prompt,
                         int64_t context_limit);
    // Evaluates prompt positions [from, from + n) (the cache holds the first `from`): logits of
    // the last one. Offers the full blocks to the prefix cache.
    Status prefill(const DecoderHandle& h, const AssembledPrompt& prompt, int64_t from, int64_t n,
                   int threads, std::vector<float>& logits);
    // Remembers the end of the prompt as the point a recurrent state can rewind to.
    void checkpoint();

    // Evaluates tokens after what the cache holds: logits of every new position ([n][vocab]) or
    // of the last one.
    Status eval(const DecoderHandle& h, std::span<const int32_t> tokens, bool all_logits,
                int threads, std::vector<float>& logits);
    // Keeps the first n positions (attention caches only: speculation's rejected drafts).
    Status keep(int64_t n);

    // Forgets everything; the sequence is returned to be freed on the worker (which owns the
    // block pool).
    std::unique_ptr<DecoderSequence> release();
    // Lends the sequence (a snapshot is written from it without the engine's lock); the keys
    // stay. Remember generation() when lending: give_back() keeps the sequence only when the
    // session was neither reset (release) nor given another (replace) meanwhile, and otherwise
    // returns it to be freed (a reset session must not get its old tokens back without their
    // keys: the next prompt would be appended after them).
    std::unique_ptr<DecoderSequence> lend() { return std::move(seq_); }
    uint64_t generation() const { return generation_; }
    std::unique_ptr<DecoderSequence> give_back(std::unique_ptr<DecoderSequence> seq,
                                               uint64_t lent_generation);
    // Holds `seq` (a loaded snapshot) with its keys and offers it to the prefix cache; returns
    // what it held before, to be freed.
    std::unique_ptr<DecoderSequence> replace(const DecoderHandle& h,
                                             std::unique_ptr<DecoderSequence> seq,
                                             std::vector<uint64_t> keys);

    // For the engine's statistics (zero without a sequence).
    size_t kv_bytes() const;
    size_t scratch_bytes() const;
    void block_map(SessionBlockMap& out) const;

private:
    std::unique_ptr<DecoderSequence> seq_;
    std::vector<uint64_t> keys_; // of exactly what seq_ holds
    uint64_t generation_ = 0;    // counts release() and replace()
};

} // namespace folio
