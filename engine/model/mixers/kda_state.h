#pragma once
// The recurrent state of one KDA layer: per head the delta-rule state S, a
// row-major [d_k][d_v] matrix S[i][j] (i = key channel), and per projection (q, k, v) the short
// convolution's last W−1 raw rows of P floats, oldest first. Snapshot sections: s, conv_q,
// conv_k, conv_v (docs/KV_CACHE.md "Snapshots").

#include "model/layer/layer_state.h"
#include "model/layer/model_config.h"

#include <vector>

namespace folio {

class KdaLayerState final : public LayerState {
public:
    KdaLayerState() = default;
    // Zeros sized for layer il of c.
    KdaLayerState(const ModelConfig& c, uint32_t il);

    std::unique_ptr<LayerState> clone() const override;
    void reset() override;
    size_t bytes() const override;
    size_t capacity_bytes() const override;
    Status save(SnapshotWriter& w) const override;
    Status load(SnapshotReader& r, const std::string& what) override;

    std::vector<float> s;
    std::vector<float> conv_q, conv_k, conv_v;
};

} // namespace folio
