#pragma once
// The prefix cache (docs/KV_CACHE.md, "Prefix cache"): full blocks of finished prompts, found again
// by the chain of their contents. Block b of a sequence is identified by the keys of its tokens
// (token ids; image rows by image content hash and row) and by everything before it, through
// hash(b) = mix(hash(b - 1), keys of block b). Entries keep their keys and are compared exactly,
// so a hash collision can never hand out the wrong rows. An entry holds one block per caching
// layer (reference counted in the pool: live sequences and the index share them) and, for
// models with recurrent layers, optionally the recurrent state at the block's end, without
// which a sequence cannot resume there. Least-recently-used entries go first over the budget.

#include "cache/block_pool.h"

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

namespace folio {

struct PrefixEntry {
    uint64_t hash = 0;
    std::vector<uint64_t> keys;             // the block's token keys
    std::vector<BlockId> blocks;            // per layer; -1 for layers without rows
    std::vector<std::vector<uint8_t>> side; // per layer: small rows kept outside the pool (the
                                            // DSA index keys of the block), may be empty
    std::shared_ptr<const void> recurrent;  // model-defined state at the block's end, or null
    size_t recurrent_bytes = 0;
    uint64_t last_use = 0;
};

class PrefixIndex {
public:
    // budget_bytes: blocks (counted whole, shared or not) and recurrent states the index may
    // keep alive.
    PrefixIndex(std::shared_ptr<BlockPool> pool, int64_t budget_bytes);
    ~PrefixIndex();
    PrefixIndex(const PrefixIndex&) = delete;
    PrefixIndex& operator=(const PrefixIndex&) = delete;

    static uint64_t chain(uint64_t previous, const uint64_t* keys, int64_t n);
    static constexpr uint64_t kSeed = 0x6a09e667f3bcc909ull;

    // The entries of the leading full blocks of `keys` (at most n_tokens / block_tokens of
    // them), in order, up to the first block not in the index. Counts hits and misses.
    std::vector<const PrefixEntry*> match(const uint64_t* keys, int64_t n_tokens);
    // Adds block number `index` of a sequence as `hash` (its keys, its blocks per layer:
    // retained). An existing entry only gains a recurrent state it lacked.
    void insert(uint64_t hash, int64_t index, const uint64_t* keys,
                const std::vector<BlockId>& blocks, std::vector<std::vector<uint8_t>> side,
                std::shared_ptr<const void> recurrent, size_t recurrent_bytes);
    bool contains(uint64_t hash) const { return entries_.count(hash) != 0; }
    void clear();

    int64_t hits() const { return hits_; }
    int64_t misses() const { return misses_; }
    int64_t bytes() const { return bytes_; }
    size_t size() const { return entries_.size(); }

private:
    void trim();
    void drop(std::unordered_map<uint64_t, PrefixEntry>::iterator it);

    std::shared_ptr<BlockPool> pool_;
    int64_t budget_ = 0;
    int64_t bytes_ = 0;
    uint64_t clock_ = 0;
    int64_t hits_ = 0, misses_ = 0;
    std::unordered_map<uint64_t, PrefixEntry> entries_;
};

} // namespace folio
