#include "cache/prefix_index.h"

#include <algorithm>

namespace folio {

namespace {

// splitmix64's finalizer: every input bit affects every output bit.
uint64_t mix(uint64_t x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    x ^= x >> 31;
    return x;
}

// LRU stamp: the clock in the high bits; within one request, later blocks of a chain look
// older, so a chain is trimmed from its end and its remaining entries stay reachable.
uint64_t stamp(uint64_t clock, int64_t block) {
    return (clock << 24) +
           ((1u << 24) - 1 - static_cast<uint64_t>(std::min<int64_t>(block, (1 << 24) - 1)));
}

} // namespace

PrefixIndex::PrefixIndex(std::shared_ptr<BlockPool> pool, int64_t budget_bytes)
    : pool_(std::move(pool)), budget_(budget_bytes) {}

PrefixIndex::~PrefixIndex() {
    clear();
}

uint64_t PrefixIndex::chain(uint64_t previous, const uint64_t* keys, int64_t n) {
    uint64_t h = mix(previous ^ 0x9e3779b97f4a7c15ull);
    for (int64_t i = 0; i < n; ++i)
        h = mix(h + keys[i] + 0x632be59bd9b4e019ull * static_cast<uint64_t>(i + 1));
    return h;
}

std::vector<const PrefixEntry*> PrefixIndex::match(const uint64_t* keys, int64_t n_tokens) {
    std::vector<const PrefixEntry*> out;
    const int64_t bt = pool_->config().block_tokens;
    const int64_t n_blocks = n_tokens / bt;
    uint64_t h = kSeed;
    ++clock_;
    for (int64_t b = 0; b < n_blocks; ++b) {
        h = chain(h, keys + b * bt, bt);
        auto it = entries_.find(h);
        if (it == entries_.end() ||
            !std::equal(it->second.keys.begin(), it->second.keys.end(), keys + b * bt)) {
            misses_ += n_blocks - b;
            break;
        }
        it->second.last_use = stamp(clock_, b);
        out.push_back(&it->second);
        ++hits_;
    }
    return out;
}

void PrefixIndex::insert(uint64_t hash, int64_t index, const uint64_t* keys,
                         const std::vector<BlockId>& blocks, std::vector<std::vector<uint8_t>> side,
                         std::shared_ptr<const void> recurrent, size_t recurrent_bytes) {
    auto it = entries_.find(hash);
    if (it != entries_.end()) {
        if (!it->second.recurrent && recurrent) {
            it->second.recurrent = std::move(recurrent);
            it->second.recurrent_bytes = recurrent_bytes;
            bytes_ += static_cast<int64_t>(recurrent_bytes);
            trim();
        }
        return;
    }
    PrefixEntry e;
    e.hash = hash;
    e.keys.assign(keys, keys + pool_->config().block_tokens);
    e.blocks = blocks;
    for (BlockId id : e.blocks)
        if (id >= 0) {
            pool_->retain(id);
            bytes_ += static_cast<int64_t>(pool_->block_bytes());
        }
    e.recurrent = std::move(recurrent);
    e.recurrent_bytes = e.recurrent ? recurrent_bytes : 0;
    bytes_ += static_cast<int64_t>(e.recurrent_bytes);
    e.side = std::move(side);
    for (const auto& v : e.side)
        bytes_ += static_cast<int64_t>(v.size());
    e.last_use = stamp(++clock_, index);
    entries_.emplace(hash, std::move(e));
    trim();
}

void PrefixIndex::drop(std::unordered_map<uint64_t, PrefixEntry>::iterator it) {
    for (BlockId id : it->second.blocks)
        if (id >= 0) {
            pool_->release(id);
            bytes_ -= static_cast<int64_t>(pool_->block_bytes());
        }
    bytes_ -= static_cast<int64_t>(it->second.recurrent_bytes);
    for (const auto& v : it->second.side)
        bytes_ -= static_cast<int64_t>(v.size());
    entries_.erase(it);
}

void PrefixIndex::trim() {
    while (bytes_ > budget_ && !entries_.empty()) {
        auto oldest = entries_.begin();
        for (auto it = entries_.begin(); it != entries_.end(); ++it)
            if (it->second.last_use < oldest->second.last_use)
                oldest = it;
        drop(oldest);
    }
}

void PrefixIndex::clear() {
    while (!entries_.empty())
        drop(entries_.begin());
}

} // namespace folio
