#pragma once
// Everything a decoder keeps per sequence between calls (MODEL_SPEC §2.7, §4.4, §5.4):
//  * the MLA cache: per MLA layer one row [normalized latent c | k_pe] per token,
//  * the DSA index-key cache: per indexer layer one d_I-float index key per token,
//  * per recurrent layer (KDA) its LayerState: the delta-rule state S (H × d_k × d_v, fp32) and
//    the short-convolution state (the last W−1 raw q/k/v projections), constant in the
//    sequence length.
// The MLA rows live in blocks of a shared BlockPool (engine/cache/: RAM shards, disk tier,
// storage type, prefix sharing); the index keys stay in RAM (IndexKeyCache). Recurrent states
// cannot be rewound token by token: truncate() works back to 0, to size(), or to the position of
// the last checkpoint().

#include "cache/paged_kv.h"
#include "folio/error.h"
#include "model/index_key_cache.h"
#include "model/layer_state.h"
#include "model/model_config.h"

#include <cstdint>
#include <vector>

namespace folio {

// The block pool configuration for a model's MLA rows under the user's cache options.
PoolConfig pool_config_for(const ModelConfig& c, const CacheOptions& options);

// What each layer keeps per sequence, as its mixer says (LayerMixer::keeps_cache_rows,
// keeps_index_keys, make_state); make_decoder_state builds it.
struct SequenceLayout {
    std::vector<bool> cache_rows; // per layer: a row per token in the paged KV cache
    std::vector<bool> index_keys; // per layer: a DSA index key per token
    LayerStates states;           // per layer: its recurrent state (zeros), or null
};

class DecoderState {
public:
    DecoderState() = default;
    // pool: where the cache rows go (shared between sequences); null: a private unlimited f32
    // pool.
    DecoderState(const ModelConfig& c, SequenceLayout layout, int64_t max_tokens,
                 std::shared_ptr<BlockPool> pool = nullptr, KvType index_type = KvType::F32);
    DecoderState(DecoderState&&) = default;
    DecoderState& operator=(DecoderState&&) = default;

    int64_t size() const { return mla_.size(); }             // tokens evaluated so far
    int64_t max_tokens() const { return mla_.max_tokens(); } // context limit

    // Drops everything from position n on. Error (state unchanged) when recurrent layers would
    // have to be rewound to a position other than 0, size() or the checkpoint.
    Status truncate(int64_t n);
    void clear();
    // Remembers the recurrent states at size() so truncate() can return here (e.g. after a
    // prompt).
    void checkpoint();
    int64_t checkpoint_position() const { return checkpoint_pos_; }
    bool can_truncate_to(int64_t n) const;
    size_t bytes() const;       // RAM bytes: cache blocks in RAM, index keys, recurrent states
    size_t fixed_bytes() const; // the part that cannot move to disk (index keys, recurrent states)
    // Tells the block pool about fixed_bytes() (counted against its RAM budget).
    void account_fixed_bytes();

    PagedKv& mla() { return mla_; }
    const PagedKv& mla() const { return mla_; }
    IndexKeyCache& index_keys() { return index_keys_; }
    const IndexKeyCache& index_keys() const { return index_keys_; }
    // Layer il's recurrent state (null when it has none).
    LayerState* layer_state(uint32_t layer) { return states_[layer].get(); }
    const LayerState* layer_state(uint32_t layer) const { return states_[layer].get(); }
    // Some layer has a recurrent state: the sequence rewinds only to 0, size() or the checkpoint.
    bool recurrent() const { return recurrent_; }
    bool layer_has_index_keys(uint32_t layer) const { return index_layers_[layer]; }

    // The recurrent states now (for the prefix cache); null without recurrent layers.
    std::shared_ptr<const LayerStates> recurrent_snapshot() const;
    size_t recurrent_bytes() const;                        // bytes of their values
    size_t kda_bytes() const { return recurrent_bytes(); } // the older name (bench/)
    // Snapshot sections of the recurrent states, layer by layer: now, or at the checkpoint.
    Status save_recurrent(SnapshotWriter& w, bool at_checkpoint) const;
    // Reads what save_recurrent wrote into fresh states sized as this sequence's.
    Expected<LayerStates> read_recurrent(SnapshotReader& r) const;
    // Replaces everything with the first n_tokens tokens held by `per_layer` blocks (retained)
    // and, with recurrent layers, the states after them. Index keys are the caller's
    // (index_keys()).
    void adopt_prefix(const std::vector<std::vector<BlockId>>& per_layer, int64_t n_tokens,
                      const LayerStates* states);

    // After every layer appended its rows: the n tokens become part of the sequence.
    void commit(int64_t n) {
        mla_.commit(n);
        index_keys_.commit(n);
    }

private:
    void reset_states();

    PagedKv mla_;
    IndexKeyCache index_keys_; // per layer indexer_head_dim values per token (f32, f16 or q8_0)
    std::vector<bool> index_layers_;
    LayerStates states_;     // one per layer; null where the layer keeps none
    LayerStates checkpoint_; // the states at checkpoint_pos_
    int64_t checkpoint_pos_ = -1;
    bool recurrent_ = false;
};

} // namespace folio
