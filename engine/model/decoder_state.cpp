#include "model/decoder_state.h"

#include <algorithm>
#include <string>

namespace folio {

DecoderState::DecoderState(const ModelConfig& c, int64_t max_tokens, KvType index_type)
    : mla_(c.n_layer, c.kv_lora_rank + c.qk_rope, max_tokens),
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
    size_t total = mla_.bytes() + index_keys_.bytes();
    for (const auto* v : {&kda_, &checkpoint_})
        for (const KdaLayerState& k : *v)
            total +=
                (k.s.capacity() + k.conv_q.capacity() + k.conv_k.capacity() + k.conv_v.capacity()) *
                sizeof(float);
    return total;
}

} // namespace folio
