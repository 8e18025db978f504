#pragma once
// The DSA index keys of one sequence: per indexer layer one key of d_I
// values per token, stored as f32, f16 or q8_0 (folio::KvType, CacheOptions::index_type) in one
// contiguous array per layer, in the tile layout the score kernels read (kernels/index_score.h:
// tiles of 8 keys). Always in RAM. Same append / commit / size / truncate / bytes rules as
// MlaCache: append() writes the rows of positions [size(), size() + n) of one layer, commit(n)
// makes them part of the sequence once every layer has appended them.
//
// F32 keeps the values bit for bit; F16 rounds to nearest even; Q8_0 quantizes each key like a
// GGML q8_0 row (blocks of 32, d = amax/127 in fp16; d_I is zero-padded to a multiple of 32).
// BF16 is not offered for index keys: it is stored as F16 (same bytes, more mantissa).

#include "cache/huge_bytes.h"
#include "folio/cache.h"
#include "folio/error.h"
#include "kernels/index_score.h"

#include <cstdint>
#include <vector>

namespace folio {

class IndexKeyCache {
public:
    IndexKeyCache() = default;
    IndexKeyCache(uint32_t n_layer, uint32_t dim, int64_t max_tokens, KvType type = KvType::F32);

    KvType type() const { return type_; }
    IndexKeyFormat format() const { return format_; }
    uint32_t dim() const { return dim_; }
    int64_t size() const { return n_tokens_; }         // tokens whose keys are complete
    int64_t max_tokens() const { return max_tokens_; } // context limit

    // Stores the keys rows[n][dim] of positions [size(), size() + n) of `layer` (converted to the
    // storage type). Error when the context limit would be exceeded.
    Status append(uint32_t layer, const float* rows, int64_t n);
    // After every layer appended its n keys: the tokens become part of the sequence.
    void commit(int64_t n) { n_tokens_ += n; }
    // The tiles of `layer` (keys 0 .. end, including appended but not yet committed ones).
    const uint8_t* tiles(uint32_t layer) const { return layers_[layer].data(); }
    // Key `pos` of `layer` as floats (dequantized), dim values.
    void read(uint32_t layer, int64_t pos, float* out) const;
    // Bytes of the whole tiles that hold keys [0, n) of a layer (raw copies for snapshots and
    // the prefix cache: tiles(layer) points at them).
    size_t bytes_for(int64_t n) const;
    // Appends n keys of `layer` given as raw tiles copied from a cache of the same type and dim.
    // size() must be a multiple of kIndexTile (keys start a tile). Call commit(n) after every
    // layer.
    Status append_raw(uint32_t layer, const uint8_t* tiles, int64_t n);
    // Drops everything from position n on.
    void truncate(int64_t n);
    void clear() { truncate(0); }
    size_t bytes() const;

private:
    KvType type_ = KvType::F32;
    IndexKeyFormat format_ = IndexKeyFormat::F32;
    uint32_t dim_ = 0;
    size_t tile_bytes_ = 0;
    int64_t max_tokens_ = 0;
    int64_t n_tokens_ = 0;
    std::vector<HugeBytes> layers_;
};

} // namespace folio
