#include "model/decoder_state.h"

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

std::vector<bool> mla_layers(const ModelConfig& c) {
    std::vector<bool> v(c.n_layer);
    for (uint32_t il = 0; il < c.n_layer; ++il)
        v[il] = !c.is_kda_layer(il);
    return v;
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

DecoderState::DecoderState(const ModelConfig& c, int64_t max_tokens,
                           std::shared_ptr<BlockPool> pool, KvType index_type)
    : mla_(pool ? std::move(pool) : std::make_shared<BlockPool>(pool_config_for(c, CacheOptions{})),
           mla_layers(c), max_tokens),
      index_keys_(c.n_layer, c.indexer_head_dim, max_tokens, index_type), kda_(c.n_layer),
      has_kda_(c.has_kda()) {
    for (uint32_t il = 0; il < c.n_layer; ++il) {
        if (!c.is_kda_layer(il))
            continue;
        const size_t D = c.kda_head_dim, P = c.kda_width(il), W = c.conv_kernel;
        KdaLayerState& k = kda_[il];
        k.s.assign(c.n_head[il] * D * D, 0.0f);
        k.conv_q.assign((W - 1) * P, 0.0f);
        k.conv_k.assign((W - 1) * P, 0.0f);
        k.conv_v.assign((W - 1) * P, 0.0f);
    }
}

void DecoderState::reset_kda(std::vector<KdaLayerState>& states) const {
    for (KdaLayerState& k : states) {
        std::fill(k.s.begin(), k.s.end(), 0.0f);
        std::fill(k.conv_q.begin(), k.conv_q.end(), 0.0f);
        std::fill(k.conv_k.begin(), k.conv_k.end(), 0.0f);
        std::fill(k.conv_v.begin(), k.conv_v.end(), 0.0f);
    }
}

bool DecoderState::can_truncate_to(int64_t n) const {
    return !has_kda_ || n <= 0 || n >= size() || n == checkpoint_pos_;
}

Status DecoderState::truncate(int64_t n) {
    if (!can_truncate_to(n))
        return make_error(ErrorCode::InvalidArgument,
                          "cannot rewind the recurrent (KDA) state to position " +
                              std::to_string(n) + " (possible: 0, " + std::to_string(size()) +
                              (checkpoint_pos_ >= 0
                                   ? " or the checkpoint " + std::to_string(checkpoint_pos_)
                                   : std::string()) +
                              ")");
    if (has_kda_ && n < size()) {
        if (n <= 0)
            reset_kda(kda_);
        else
            kda_ = checkpoint_; // n == checkpoint_pos_
    }
    if (checkpoint_pos_ > n || n <= 0)
        checkpoint_pos_ = -1;
    mla_.truncate(n);
    index_keys_.truncate(n);
    return {};
}

void DecoderState::clear() {
    reset_kda(kda_);
    checkpoint_.clear();
    checkpoint_pos_ = -1;
    mla_.clear();
    index_keys_.clear();
}

void DecoderState::checkpoint() {
    if (!has_kda_)
        return;
    checkpoint_ = kda_;
    checkpoint_pos_ = size();
}

size_t DecoderState::bytes() const {
    return mla_.ram_bytes() + fixed_bytes();
}

size_t DecoderState::fixed_bytes() const {
    size_t total = index_keys_.bytes();
    for (const auto* v : {&kda_, &checkpoint_})
        for (const KdaLayerState& k : *v)
            total +=
                (k.s.capacity() + k.conv_q.capacity() + k.conv_k.capacity() + k.conv_v.capacity()) *
                sizeof(float);
    return total;
}

} // namespace folio

namespace folio {

void DecoderState::account_fixed_bytes() {
    const size_t index = index_keys_.bytes();
    mla_.set_fixed(static_cast<int64_t>(index), static_cast<int64_t>(fixed_bytes() - index));
}

} // namespace folio

namespace folio {

std::shared_ptr<const std::vector<KdaLayerState>> DecoderState::kda_snapshot() const {
    if (!has_kda_)
        return nullptr;
    return std::make_shared<const std::vector<KdaLayerState>>(kda_);
}

size_t DecoderState::kda_bytes() const {
    size_t total = 0;
    for (const KdaLayerState& k : kda_)
        total += (k.s.size() + k.conv_q.size() + k.conv_k.size() + k.conv_v.size()) * sizeof(float);
    return total;
}

void DecoderState::adopt_prefix(const std::vector<std::vector<BlockId>>& per_layer,
                                int64_t n_tokens, const std::vector<KdaLayerState>* kda) {
    clear();
    mla_.adopt(per_layer, n_tokens);
    if (has_kda_ && kda)
        kda_ = *kda;
}

} // namespace folio
