#pragma once
// Everything a decoder keeps per sequence between calls (MODEL_SPEC §2.7, §4.4, §5.4):
//  * the MLA cache: per MLA layer one row [normalized latent c | k_pe] per token,
//  * the DSA index-key cache: per indexer layer one d_I-float index key per token,
//  * per KDA layer the recurrent state S (H × d_k × d_v, fp32) and the short-convolution state
//    (the last W−1 raw q/k/v projections), constant in the sequence length.
// The MLA rows live in blocks of a shared BlockPool (engine/cache/: RAM shards, disk tier,
// storage type, prefix sharing); the index keys stay in RAM (IndexKeyCache). KDA states
// cannot be rewound token by token: truncate() works back to 0, to size(), or to the position of
// the last checkpoint().

#include "cache/paged_kv.h"
#include "folio/error.h"
#include "model/index_key_cache.h"
#include "model/model_config.h"

#include <cstdint>
#include <vector>

namespace folio {

// The block pool configuration for a model's MLA rows under the user's cache options.
PoolConfig pool_config_for(const ModelConfig& c, const CacheOptions& options);

// Recurrent state of one KDA layer. s: per head a row-major [d_k][d_v] matrix S[i][j] (i = key
// channel). conv: per projection (q, k, v) W−1 rows of P floats, oldest first.
struct KdaLayerState {
    std::vector<float> s;
    std::vector<float> conv_q, conv_k, conv_v;
};

class DecoderState {
public:
    DecoderState() = default;
    // pool: where the MLA rows go (shared between sequences); null: a private unlimited f32 pool.
    DecoderState(const ModelConfig& c, int64_t max_tokens,
                 std::shared_ptr<BlockPool> pool = nullptr, KvType index_type = KvType::F32);
    DecoderState(DecoderState&&) = default;
    DecoderState& operator=(DecoderState&&) = default;

    int64_t size() const { return mla_.size(); }             // tokens evaluated so far
    int64_t max_tokens() const { return mla_.max_tokens(); } // context limit

    // Drops everything from position n on. Error (state unchanged) when KDA layers would have to
    // be rewound to a position other than 0, size() or the checkpoint.
    Status truncate(int64_t n);
    void clear();
    // Remembers the KDA states at size() so truncate() can return here (e.g. after a prompt).
    void checkpoint();
    int64_t checkpoint_position() const { return checkpoint_pos_; }
    const std::vector<KdaLayerState>& checkpoint_states() const { return checkpoint_; }
    bool can_truncate_to(int64_t n) const;
    size_t bytes() const;       // RAM bytes: MLA blocks in RAM, index keys, KDA states
    size_t fixed_bytes() const; // the part that cannot move to disk (index keys, KDA states)
    // Tells the block pool about fixed_bytes() (counted against its RAM budget).
    void account_fixed_bytes();

    PagedKv& mla() { return mla_; }
    const PagedKv& mla() const { return mla_; }
    IndexKeyCache& index_keys() { return index_keys_; }
    const IndexKeyCache& index_keys() const { return index_keys_; }
    KdaLayerState& kda(uint32_t layer) { return kda_[layer]; }
    const KdaLayerState& kda(uint32_t layer) const { return kda_[layer]; }
    bool has_kda() const { return has_kda_; }

    // The KDA states now (for the prefix cache); null without KDA layers.
    std::shared_ptr<const std::vector<KdaLayerState>> kda_snapshot() const;
    size_t kda_bytes() const;
    // Replaces everything with the first n_tokens tokens held by `per_layer` blocks (retained)
    // and, with KDA layers, the states after them. Index keys are the caller's (index_keys()).
    void adopt_prefix(const std::vector<std::vector<BlockId>>& per_layer, int64_t n_tokens,
                      const std::vector<KdaLayerState>* kda);

    // After every layer appended its rows: the n tokens become part of the sequence.
    void commit(int64_t n) {
        mla_.commit(n);
        index_keys_.commit(n);
    }

private:
    void reset_kda(std::vector<KdaLayerState>& states) const;

    PagedKv mla_;
    IndexKeyCache index_keys_; // per layer indexer_head_dim values per token (f32, f16 or q8_0)
    std::vector<KdaLayerState> kda_; // one per layer; empty for MLA layers
    std::vector<KdaLayerState> checkpoint_;
    int64_t checkpoint_pos_ = -1;
    bool has_kda_ = false;
};

} // namespace folio
