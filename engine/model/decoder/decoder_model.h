#pragma once
// The decoder of every text architecture Folio runs (docs/ATTENTION_KINDS.md, the attention
// kinds; docs/KIMI_HYBRID.md; llama.cpp's GGUF layout of deepseek2, deepseek32 and
// kimi-linear): a stack of layers, each a token mixer (model/layer/layer_mixer.h, one per attention
// kind, model/mixers/) and the DeepSeek MoE or a dense FFN. Where each layer's weights, cache
// rows and computation live is the device plan's (backend/device_plan.h); per-sequence state
// lives in a DecoderState.

#include "backend/device.h"
#include "backend/device_plan.h"
#include "folio/error.h"
#include "gguf/gguf_file.h"
#include "model/layer/decoder_eval_types.h"
#include "model/layer/decoder_state.h"
#include "model/layer/decoder_weights.h"
#include "model/layer/model_config.h"

#include <memory>
#include <string>
#include <vector>

namespace folio {

struct DecoderModel {
    std::unique_ptr<gguf::File> file;
    ModelConfig config;
    DecoderWeights weights;
    std::vector<std::unique_ptr<Device>> devices; // what the plan was offered: the CPU today
    DevicePlan placement;                         // which device holds what, per layer
};

// Opens and checks a model file (config, every tensor's shape and type), plans where each
// layer lives (backend/device_plan.h; its KV reserved for the trained context with cache rows
// stored as kv_type) and places the weights through the devices the plan names.
Expected<std::unique_ptr<DecoderModel>> load_decoder(const std::string& path,
                                                     KvType kv_type = KvType::F32);

// The device whose block pool holds every layer's cache rows (one pool: one row width,
// docs/ATTENTION_KINDS.md).
const Device& decoder_kv_device(const DecoderModel& model);

// A fresh state for one sequence of at most max_tokens tokens.
// pool: the shared block pool for its cache rows (null: a private unlimited f32 pool).
// token_row_type: storage of the layers' other per-token rows (F32, F16 or Q8_0;
// LayerMixer::make_token_rows).
DecoderState make_decoder_state(const ModelConfig& config, int64_t max_tokens,
                                std::shared_ptr<BlockPool> pool = nullptr,
                                KvType token_row_type = KvType::F32);
inline DecoderState make_decoder_state(const ModelConfig& config, int64_t max_tokens,
                                       KvType token_row_type) {
    return make_decoder_state(config, max_tokens, nullptr, token_row_type);
}

// Evaluates `n` tokens at positions state.size() .. state.size()+n-1, appends their cache rows,
// advances the recurrent states, and writes logits: [n][n_vocab] with all_logits, else [n_vocab]
// for the last token. Token ids outside the vocabulary and context overflow are errors that leave
// the state unchanged; an internal error after evaluation started clears the state.
Status decoder_eval(const DecoderModel& model, DecoderState& state, DecoderScratch& scratch,
                    const int32_t* tokens, int64_t n, const EvalOptions& options,
                    std::vector<float>& logits);

// The input rows decoder_eval starts from: token_embd rows of `tokens`, written to
// out[n][n_embd]. Ids outside the vocabulary are errors.
Status decoder_embed_tokens(const DecoderModel& model, const int32_t* tokens, int64_t n, float* out,
                            const KernelContext& kernels);

// decoder_eval on input rows given as embeddings, embd[n][n_embd] (e.g. an image's projector
// output in place of its placeholder tokens, docs/ARCHITECTURE.md's flow): one position per row,
// same state, error and logits rules. decoder_eval(tokens) ==
// decoder_eval_embeddings(embed(tokens)).
Status decoder_eval_embeddings(const DecoderModel& model, DecoderState& state,
                               DecoderScratch& scratch, const float* embd, int64_t n,
                               const EvalOptions& options, std::vector<float>& logits);

} // namespace folio
