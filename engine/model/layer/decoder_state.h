#pragma once
// Everything a decoder keeps per sequence between calls, as each layer's mixer says
// (model/layer/layer_mixer.h, docs/ATTENTION_KINDS.md):
//  * per layer that keeps cache rows, one row per token in the paged KV cache: blocks of a
//    shared BlockPool (engine/cache/: RAM shards, disk tier, storage type, prefix sharing),
//  * per layer that keeps token rows, its TokenRows (model/layer/token_rows.h), always in RAM,
//  * per recurrent layer its LayerState (model/layer/layer_state.h), constant in the sequence
//  length.
// Recurrent states cannot be rewound token by token: truncate() works back to 0, to size(), or
// to the position of the last checkpoint().

#include "cache/paged_kv.h"
#include "folio/error.h"
#include "model/layer/layer_state.h"
#include "model/layer/model_config.h"
#include "model/layer/token_rows.h"

#include <cstdint>
#include <vector>

namespace folio {

// The block pool configuration for a model's cache rows under the user's cache options.
PoolConfig pool_config_for(const ModelConfig& c, const CacheOptions& options);

// What each layer keeps per sequence, as its mixer says (LayerMixer::keeps_cache_rows,
// make_token_rows, make_state); make_decoder_state builds it.
struct SequenceLayout {
    std::vector<bool> cache_rows;        // per layer: a row per token in the paged KV cache
    LayerTokenRows token_rows;           // per layer: its token rows (empty), or null
    LayerStates states;                  // per layer: its recurrent state (zeros), or null
    KvType token_row_type = KvType::F32; // the storage asked for the token rows
};

class DecoderState {
public:
    DecoderState() = default;
    // pool: where the cache rows go (shared between sequences); null: a private unlimited f32
    // pool.
    DecoderState(const ModelConfig& c, SequenceLayout layout, int64_t max_tokens,
                 std::shared_ptr<BlockPool> pool = nullptr);
    DecoderState(DecoderState&&) = default;
    DecoderState& operator=(DecoderState&&) = default;

    int64_t size() const { return kv_.size(); }             // tokens evaluated so far
    int64_t max_tokens() const { return kv_.max_tokens(); } // context limit

    // Drops everything from position n on. Error (state unchanged) when recurrent layers would
    // have to be rewound to a position other than 0, size() or the checkpoint.
    Status truncate(int64_t n);
    void clear();
    // Remembers the recurrent states at size() so truncate() can return here (e.g. after a
    // prompt).
    void checkpoint();
    int64_t checkpoint_position() const { return checkpoint_pos_; }
    bool can_truncate_to(int64_t n) const;
    size_t bytes() const;       // RAM bytes: cache blocks in RAM, token rows, recurrent states
    size_t fixed_bytes() const; // the part that cannot move to disk (token rows, recurrent states)
    // Tells the block pool about fixed_bytes() (counted against its RAM budget).
    void account_fixed_bytes();

    // The cache rows of every layer that keeps them.
    PagedKv& kv() { return kv_; }
    const PagedKv& kv() const { return kv_; }
    // Layer il's token rows (null when it keeps none).
    TokenRows* token_rows(uint32_t layer) { return token_rows_[layer].get(); }
    const TokenRows* token_rows(uint32_t layer) const { return token_rows_[layer].get(); }
    // Some layer keeps token rows.
    bool has_token_rows() const { return token_row_layers_ > 0; }
    // Their storage type and width (the first such layer's; the type asked for and 0 when no
    // layer keeps any): what a snapshot records.
    KvType token_row_type() const;
    uint32_t token_row_values() const;
    // Token counts that raw copies of every layer's token rows can start at (1 without any).
    int64_t token_row_tile() const;
    // Commits n tokens of token rows appended raw (adopted prefixes, snapshots).
    void commit_token_rows(int64_t n);
    // Layer il's recurrent state (null when it has none).
    LayerState* layer_state(uint32_t layer) { return states_[layer].get(); }
    const LayerState* layer_state(uint32_t layer) const { return states_[layer].get(); }
    // Some layer has a recurrent state: the sequence rewinds only to 0, size() or the checkpoint.
    bool recurrent() const { return recurrent_; }

    // The recurrent states now (for the prefix cache); null without recurrent layers.
    std::shared_ptr<const LayerStates> recurrent_snapshot() const;
    size_t recurrent_bytes() const; // bytes of their values
    // Snapshot sections of the recurrent states, layer by layer: now, or at the checkpoint.
    Status save_recurrent(SnapshotWriter& w, bool at_checkpoint) const;
    // Reads what save_recurrent wrote into fresh states sized as this sequence's.
    Expected<LayerStates> read_recurrent(SnapshotReader& r) const;
    // Replaces everything with the first n_tokens tokens held by `per_layer` blocks (retained)
    // and, with recurrent layers, the states after them. Token rows are the caller's
    // (token_rows(), append_raw, commit_token_rows).
    void adopt_prefix(const std::vector<std::vector<BlockId>>& per_layer, int64_t n_tokens,
                      const LayerStates* states);

    // After every layer appended its rows: the n tokens become part of the sequence.
    void commit(int64_t n) {
        kv_.commit(n);
        commit_token_rows(n);
    }

private:
    void reset_states();
    size_t token_row_bytes() const;

    PagedKv kv_;
    LayerTokenRows token_rows_; // one per layer; null where the layer keeps none
    KvType token_row_type_ = KvType::F32;
    uint32_t token_row_layers_ = 0;
    LayerStates states_;     // one per layer; null where the layer keeps none
    LayerStates checkpoint_; // the states at checkpoint_pos_
    int64_t checkpoint_pos_ = -1;
    bool recurrent_ = false;
};

} // namespace folio
