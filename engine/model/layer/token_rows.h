#pragma once
// Rows a layer keeps per token beside its paged KV-cache rows, always in RAM, as its mixer
// defines them (model/mixers/: DSA's index keys). The mixer appends them during eval;
// DecoderState commits, truncates and counts them with the cache rows; the prefix cache and
// snapshots copy them raw, whole tiles at a time. docs/ATTENTION_KINDS.md.

#include "folio/cache.h"
#include "folio/error.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace folio {

class TokenRows {
public:
    virtual ~TokenRows() = default;
    // Storage type and values per token: what a snapshot checks before it reads them back.
    virtual KvType type() const = 0;
    virtual uint32_t values_per_token() const = 0;
    // Raw copies start and end at multiples of this many tokens (a prefix block must hold
    // whole tiles).
    virtual int64_t tile_tokens() const = 0;
    virtual int64_t size() const = 0; // tokens committed
    // After every layer appended its rows: the n tokens become part of the sequence.
    virtual void commit(int64_t n) = 0;
    // Drops everything from position n on.
    virtual void truncate(int64_t n) = 0;
    virtual size_t bytes() const = 0; // RAM held
    // Bytes of the raw rows of tokens [0, n), starting at raw().
    virtual size_t bytes_for(int64_t n) const = 0;
    virtual const uint8_t* raw() const = 0;
    // Appends n tokens' raw rows copied from rows of the same type and width; size() must be a
    // multiple of tile_tokens(). commit(n) follows.
    virtual Status append_raw(const uint8_t* data, int64_t n) = 0;
};

// One entry per layer; null where the layer keeps none.
using LayerTokenRows = std::vector<std::unique_ptr<TokenRows>>;

} // namespace folio
