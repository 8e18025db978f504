#pragma once
// One kind of token mixer ("attention") of a decoder layer, behind one interface, as llama.cpp
// keeps each memory kind behind llama_memory_i: it binds its tensors, says what it keeps per
// sequence (rows in the paged KV cache, other per-token rows in RAM (TokenRows), a recurrent
// LayerState that snapshots and the prefix cache save and restore), and evaluates the layer. One
// object per kind, stateless, registered in mixers/mixer_registry.cpp; docs/ATTENTION_KINDS.md says
// how to add one.

#include "folio/error.h"
#include "model/layer/decoder_eval_types.h"
#include "model/layer/decoder_state.h"
#include "model/layer/decoder_weights.h"
#include "model/layer/layer_state.h"
#include "model/layer/model_config.h"
#include "model/layer/step_profile.h"
#include "model/layer/team_steps.h"
#include "model/layer/token_rows.h"
#include "model/layer/weight_binder.h"

#include <cstdint>
#include <memory>
#include <optional>

namespace folio {

class LayerMixer {
public:
    virtual ~LayerMixer() = default;
    virtual const char* name() const = 0;

    // Weights: binds layer il's mixer tensors (names from model/layer/tensor_names.h, shapes from
    // c) into L; the output projection goes to L.attn_output.
    virtual Status bind(const WeightBinder& b, const ModelConfig& c, uint32_t il,
                        DecoderLayer& L) const = 0;

    // Per-sequence state: whether layer il keeps a row per token in the paged KV cache, its
    // other rows per token (empty, for at most max_tokens tokens stored as `type`; null when it
    // keeps none) and their bytes per token, and its recurrent state (zeros; null when it has
    // none).
    virtual bool keeps_cache_rows(const ModelConfig& c, uint32_t il) const = 0;
    virtual std::unique_ptr<TokenRows> make_token_rows(const ModelConfig&, uint32_t, int64_t,
                                                       KvType) const {
        return nullptr;
    }
    virtual size_t token_row_bytes(const ModelConfig&, uint32_t, KvType) const { return 0; }
    virtual std::unique_ptr<LayerState> make_state(const ModelConfig& c, uint32_t il) const = 0;

    // Evaluation. xn: [T][n_embd] normalized input rows; out: [T][n_embd]. Appends the layer's
    // cache rows (the caller commits them after the last layer) and advances its state.
    virtual Status eval(const ModelConfig& c, const DecoderLayer& L, uint32_t il,
                        DecoderState& state, const float* xn, int64_t T, const EvalOptions& opt,
                        DecoderScratch& s, float* out) const = 0;
    // Decode as one region (model/decoder/decode_region.h): whether layer il's one-token step
    // runs on the threads of a decode region (else the decoder evaluates the layer with eval
    // between regions); the shared buffers, sized before the region (pos0 cached rows before
    // the token, `threads` threads); and the step as thread tk.team->me, which adds the layer's
    // output to x for its share of the rows and meets every barrier, also after a failure
    // (model/layer/team_steps.h). Thread 0 times the phases.
    virtual bool decodes_in_team(const ModelConfig&, const DecoderLayer&, uint32_t,
                                 const EvalOptions&) const {
        return false;
    }
    virtual void reserve_team(const ModelConfig&, uint32_t, int64_t, int, DecoderScratch&) const {}
    virtual void decode_member(const ModelConfig&, const DecoderLayer&, uint32_t, DecoderState&,
                               const float*, float*, const KernelContext&, const EvalOptions&,
                               DecoderScratch&, TeamSteps&, Status&) const {}

    // The profile phase the whole layer mixer is timed under; none when eval times its own
    // phases.
    virtual std::optional<StepPhase> phase() const = 0;
};

} // namespace folio
