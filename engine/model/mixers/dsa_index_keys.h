#pragma once
// DSA's index keys as a layer's TokenRows (model/layer/token_rows.h): one IndexKeyCache of one
// layer, so DecoderState, the prefix cache and snapshots handle them without naming the kind; the
// indexer (mixers/dsa_indexer.h) reaches them through index_keys_of.

#include "model/attention/index_key_cache.h"
#include "model/layer/decoder_state.h"
#include "model/layer/token_rows.h"

namespace folio {

class DsaIndexKeys final : public TokenRows {
public:
    DsaIndexKeys(uint32_t dim, int64_t max_tokens, KvType type) : keys_(1, dim, max_tokens, type) {}

    IndexKeyCache& keys() { return keys_; }
    const IndexKeyCache& keys() const { return keys_; }

    KvType type() const override { return keys_.type(); }
    uint32_t values_per_token() const override { return keys_.dim(); }
    int64_t tile_tokens() const override { return kIndexTile; }
    int64_t size() const override { return keys_.size(); }
    void commit(int64_t n) override { keys_.commit(n); }
    void truncate(int64_t n) override { keys_.truncate(n); }
    size_t bytes() const override { return keys_.bytes(); }
    size_t bytes_for(int64_t n) const override { return keys_.bytes_for(n); }
    const uint8_t* raw() const override { return keys_.tiles(0); }
    Status append_raw(const uint8_t* data, int64_t n) override {
        return keys_.append_raw(0, data, n);
    }

private:
    IndexKeyCache keys_;
};

// Layer il's index keys in `state` (the layer's mixer made them: MlaMixer::make_token_rows).
inline IndexKeyCache& index_keys_of(DecoderState& state, uint32_t il) {
    return static_cast<DsaIndexKeys*>(state.token_rows(il))->keys();
}

} // namespace folio
