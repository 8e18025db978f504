#pragma once
// KDA, the gated delta rule of Kimi Linear: a recurrent layer with no cache
// rows; its per-sequence state is a KdaLayerState. Evaluation: model/kda_attention.cpp,
// model/kda_delta_rule.cpp.

#include "model/layer/layer_mixer.h"

namespace folio {

class KdaMixer final : public LayerMixer {
public:
    const char* name() const override { return "kda"; }
    Status bind(const WeightBinder& b, const ModelConfig& c, uint32_t il,
                DecoderLayer& L) const override;
    bool keeps_cache_rows(const ModelConfig&, uint32_t) const override { return false; }
    std::unique_ptr<LayerState> make_state(const ModelConfig& c, uint32_t il) const override;
    Status eval(const ModelConfig& c, const DecoderLayer& L, uint32_t il, DecoderState& state,
                const float* xn, int64_t T, const EvalOptions& opt, DecoderScratch& s,
                float* out) const override;
    std::optional<StepPhase> phase() const override { return StepPhase::KdaMixer; }
    bool decodes_in_team(const ModelConfig& c, const DecoderLayer&, uint32_t,
                         const EvalOptions& opt) const override;
    void reserve_team(const ModelConfig& c, uint32_t il, int64_t, int,
                      DecoderScratch& s) const override;
    void decode_member(const ModelConfig& c, const DecoderLayer& L, uint32_t il,
                       DecoderState& state, const float* xn, float* x, const KernelContext& tk,
                       const EvalOptions& opt, DecoderScratch& s, TeamSteps& steps,
                       Status& st) const override;
};

} // namespace folio
