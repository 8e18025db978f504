#pragma once
// The MLA KV cache of one sequence in its simplest form: per layer, one contiguous f32 row of
// kv_lora_rank + rope_dim values per token ([normalized latent c | rotated k_pe], MODEL_SPEC.md
// §4.4). The model talks to it only through append / view / size, so the paged, offloaded cache
// of the cache issue can replace it locally.

#include "folio/error.h"

#include <cstdint>
#include <vector>

namespace folio {

class MlaCache {
public:
    MlaCache() = default;
    MlaCache(uint32_t n_layer, uint32_t row_size, int64_t max_tokens)
        : row_(row_size), max_tokens_(max_tokens), layers_(n_layer) {}

    uint32_t row_size() const { return row_; }
    int64_t size() const { return n_tokens_; }         // tokens whose rows are complete
    int64_t max_tokens() const { return max_tokens_; } // context limit

    // Rows for positions [size(), size() + n) of `layer`, to be filled by the caller. Error when
    // the context limit would be exceeded.
    Expected<float*> append(uint32_t layer, int64_t n);
    // After every layer appended its n rows: the tokens become part of the sequence.
    void commit(int64_t n) { n_tokens_ += n; }
    // Rows [0, end) of `layer` (end may include rows appended but not yet committed).
    const float* view(uint32_t layer) const { return layers_[layer].data(); }
    // Drops everything from position n on (regenerate, edit and resend).
    void truncate(int64_t n);
    void clear() { truncate(0); }
    size_t bytes() const;

private:
    uint32_t row_ = 0;
    int64_t max_tokens_ = 0;
    int64_t n_tokens_ = 0;
    std::vector<std::vector<float>> layers_;
};

} // namespace folio
