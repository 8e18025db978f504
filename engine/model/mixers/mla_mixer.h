#pragma once
// MLA attention (DeepSeek-V2, arXiv:2405.04434) and, when the config has indexer keys, DSA: MLA
// whose queries attend to the top_k keys its lightning indexer selects (DeepSeek-V3.2-Exp). Keeps
// one cache row [normalized latent c | k_pe] per token and, with the indexer, one index key per
// token. Evaluation: model/mla_attention.cpp, model/dsa_indexer.cpp.

#include "model/layer/layer_mixer.h"

namespace folio {

class MlaMixer final : public LayerMixer {
public:
    const char* name() const override { return "mla"; }
    Status bind(const WeightBinder& b, const ModelConfig& c, uint32_t il,
                DecoderLayer& L) const override;
    bool keeps_cache_rows(const ModelConfig&, uint32_t) const override { return true; }
    // With the indexer: one index key per token (mixers/dsa_index_keys.h).
    std::unique_ptr<TokenRows> make_token_rows(const ModelConfig& c, uint32_t il,
                                               int64_t max_tokens, KvType type) const override;
    size_t token_row_bytes(const ModelConfig& c, uint32_t il, KvType type) const override;
    std::unique_ptr<LayerState> make_state(const ModelConfig&, uint32_t) const override {
        return nullptr;
    }
    Status eval(const ModelConfig& c, const DecoderLayer& L, uint32_t il, DecoderState& state,
                const float* xn, int64_t T, const EvalOptions& opt, DecoderScratch& s,
                float* out) const override;
    std::optional<StepPhase> phase() const override { return std::nullopt; }
    bool decodes_in_team(const ModelConfig& c, const DecoderLayer& L, uint32_t il,
                         const EvalOptions& opt) const override;
    void reserve_team(const ModelConfig& c, uint32_t il, int64_t pos0, int threads,
                      DecoderScratch& s) const override;
    void decode_member(const ModelConfig& c, const DecoderLayer& L, uint32_t il,
                       DecoderState& state, const float* xn, float* x, const KernelContext& tk,
                       const EvalOptions& opt, DecoderScratch& s, TeamSteps& steps,
                       Status& st) const override;
};

} // namespace folio
