#include "model/layer/decoder_state.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <string>

namespace folio {

namespace {

// Memory nodes of this machine (/sys/devices/system/node/online, e.g. "0" or "0-3"); 1 when
// unknown. One RAM shard per node by default.
int memory_node_count() {
    std::ifstream f("/sys/devices/system/node/online");
    std::string s;
    if (!(f >> s))
        return 1;
    int count = 0;
    size_t pos = 0;
    while (pos < s.size()) {
        const size_t comma = s.find(',', pos);
        const std::string part = s.substr(pos, comma == std::string::npos ? comma : comma - pos);
        const size_t dash = part.find('-');
        count += dash == std::string::npos
                     ? 1
                     : std::atoi(part.c_str() + dash + 1) - std::atoi(part.c_str()) + 1;
        if (comma == std::string::npos)
            break;
        pos = comma + 1;
    }
    return std::clamp(count, 1, 1024);
}

} // namespace

PoolConfig pool_config_for(const ModelConfig& c, const CacheOptions& o) {
    PoolConfig p;
    p.block_tokens = o.block_tokens;
    p.row_floats = c.kv_lora_rank + c.qk_rope;
    p.type = o.kv_type;
    p.ram_budget = o.ram_budget;
    p.strict_budget = o.strict_budget;
    p.ram_shards = o.ram_shards > 0 ? o.ram_shards : memory_node_count();
    p.offload_dir = o.offload_dir;
    p.disk_budget = o.disk_budget;
    return p;
}

DecoderState::DecoderState(const ModelConfig& c, SequenceLayout layout, int64_t max_tokens,
                           std::shared_ptr<BlockPool> pool)
    : kv_(pool ? std::move(pool) : std::make_shared<BlockPool>(pool_config_for(c, CacheOptions{})),
          std::move(layout.cache_rows), max_tokens),
      token_rows_(std::move(layout.token_rows)), token_row_type_(layout.token_row_type),
      states_(std::move(layout.states)) {
    token_rows_.resize(c.n_layer);
    states_.resize(c.n_layer);
    for (const auto& rows : token_rows_)
        token_row_layers_ += rows != nullptr;
    for (const auto& st : states_)
        recurrent_ = recurrent_ || st != nullptr;
}

KvType DecoderState::token_row_type() const {
    for (const auto& rows : token_rows_)
        if (rows)
            return rows->type();
    return token_row_type_;
}

uint32_t DecoderState::token_row_values() const {
    for (const auto& rows : token_rows_)
        if (rows)
            return rows->values_per_token();
    return 0;
}

int64_t DecoderState::token_row_tile() const {
    int64_t tile = 1;
    for (const auto& rows : token_rows_)
        if (rows)
            tile = std::max(tile, rows->tile_tokens());
    return tile;
}

void DecoderState::commit_token_rows(int64_t n) {
    if (token_row_layers_ == 0)
        return;
    for (auto& rows : token_rows_)
        if (rows)
            rows->commit(n);
}

void DecoderState::reset_states() {
    for (auto& st : states_)
        if (st)
            st->reset();
}

bool DecoderState::can_truncate_to(int64_t n) const {
    return !recurrent_ || n <= 0 || n >= size() || n == checkpoint_pos_;
}

Status DecoderState::truncate(int64_t n) {
    if (!can_truncate_to(n))
        return make_error(ErrorCode::InvalidArgument,
                          "cannot rewind the recurrent state to position " + std::to_string(n) +
                              " (possible: 0, " + std::to_string(size()) +
                              (checkpoint_pos_ >= 0
                                   ? " or the checkpoint " + std::to_string(checkpoint_pos_)
                                   : std::string()) +
                              ")");
    if (recurrent_ && n < size()) {
        if (n <= 0)
            reset_states();
        else
            states_ = clone_states(checkpoint_); // n == checkpoint_pos_
    }
    if (checkpoint_pos_ > n || n <= 0)
        checkpoint_pos_ = -1;
    kv_.truncate(n);
    for (auto& rows : token_rows_)
        if (rows)
            rows->truncate(n);
    return {};
}

void DecoderState::clear() {
    reset_states();
    checkpoint_.clear();
    checkpoint_pos_ = -1;
    kv_.clear();
    for (auto& rows : token_rows_)
        if (rows)
            rows->truncate(0);
}

void DecoderState::checkpoint() {
    if (!recurrent_)
        return;
    checkpoint_ = clone_states(states_);
    checkpoint_pos_ = size();
}

size_t DecoderState::bytes() const {
    return kv_.ram_bytes() + fixed_bytes();
}

size_t DecoderState::token_row_bytes() const {
    size_t total = 0;
    for (const auto& rows : token_rows_)
        if (rows)
            total += rows->bytes();
    return total;
}

size_t DecoderState::fixed_bytes() const {
    size_t total = token_row_bytes();
    for (const LayerStates* v : {&states_, &checkpoint_})
        for (const auto& st : *v)
            if (st)
                total += st->capacity_bytes();
    return total;
}

void DecoderState::account_fixed_bytes() {
    const size_t rows = token_row_bytes();
    kv_.set_fixed(static_cast<int64_t>(rows), static_cast<int64_t>(fixed_bytes() - rows));
}

std::shared_ptr<const LayerStates> DecoderState::recurrent_snapshot() const {
    if (!recurrent_)
        return nullptr;
    return std::make_shared<const LayerStates>(clone_states(states_));
}

size_t DecoderState::recurrent_bytes() const {
    size_t total = 0;
    for (const auto& st : states_)
        if (st)
            total += st->bytes();
    return total;
}

Status DecoderState::save_recurrent(SnapshotWriter& w, bool at_checkpoint) const {
    const LayerStates& from = at_checkpoint ? checkpoint_ : states_;
    for (size_t il = 0; il < states_.size(); ++il)
        if (states_[il])
            FOLIO_CHECK(from[il]->save(w));
    return {};
}

Expected<LayerStates> DecoderState::read_recurrent(SnapshotReader& r) const {
    LayerStates out = clone_states(states_); // the sizes
    for (size_t il = 0; il < out.size(); ++il)
        if (out[il])
            FOLIO_CHECK(out[il]->load(r, "layer " + std::to_string(il) + " recurrent state"));
    return out;
}

void DecoderState::adopt_prefix(const std::vector<std::vector<BlockId>>& per_layer,
                                int64_t n_tokens, const LayerStates* states) {
    clear();
    kv_.adopt(per_layer, n_tokens);
    if (recurrent_ && states)
        states_ = clone_states(*states);
}

} // namespace folio
