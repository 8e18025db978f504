#include "model/mixers/kda_state.h"

#include <algorithm>
#include <cstring>

namespace folio {

KdaLayerState::KdaLayerState(const ModelConfig& c, uint32_t il) {
    const size_t D = c.kda_head_dim, P = c.kda_width(il), W = c.conv_kernel;
    s.assign(c.n_head[il] * D * D, 0.0f);
    conv_q.assign((W - 1) * P, 0.0f);
    conv_k.assign((W - 1) * P, 0.0f);
    conv_v.assign((W - 1) * P, 0.0f);
}

std::unique_ptr<LayerState> KdaLayerState::clone() const {
    return std::make_unique<KdaLayerState>(*this);
}

void KdaLayerState::reset() {
    for (std::vector<float>* v : {&s, &conv_q, &conv_k, &conv_v})
        std::fill(v->begin(), v->end(), 0.0f);
}

size_t KdaLayerState::bytes() const {
    return (s.size() + conv_q.size() + conv_k.size() + conv_v.size()) * sizeof(float);
}

size_t KdaLayerState::capacity_bytes() const {
    return (s.capacity() + conv_q.capacity() + conv_k.capacity() + conv_v.capacity()) *
           sizeof(float);
}

Status KdaLayerState::save(SnapshotWriter& w) const {
    for (const std::vector<float>* v : {&s, &conv_q, &conv_k, &conv_v})
        FOLIO_CHECK(w.section(v->data(), sizeof(float) * v->size()));
    return {};
}

Status KdaLayerState::load(SnapshotReader& r, const std::string& what) {
    for (std::vector<float>* v : {&s, &conv_q, &conv_k, &conv_v}) {
        FOLIO_TRY(p, r.section(sizeof(float) * v->size(), what));
        std::memcpy(v->data(), p, sizeof(float) * v->size());
    }
    return {};
}

} // namespace folio
