#pragma once
// The decoder of every text architecture Folio runs (spec/MODEL_SPEC.md §1-§6,
// spec/GGUF_LAYOUT.md §3-§5, docs/KIMI_HYBRID.md): deepseek2 (Kimi-K2, Kimi-VL text,
// DeepSeek-V3), deepseek32 (MLA + DSA lightning indexer), kimi-linear (KDA + NoPE MLA) and our
// kimi-hybrid (KDA + NoPE MLA with the DSA indexer), all with the DeepSeek MoE FFN. Weights stay
// in the mmapped file; per-sequence state lives in a DecoderState.

#include "folio/error.h"
#include "gguf/gguf_file.h"
#include "kernels/kernel_context.h"
#include "model/decoder_state.h"
#include "model/decoder_weights.h"
#include "model/model_config.h"
#include "model/step_profile.h"
#include "model/top_k_select.h"

#include <memory>
#include <string>
#include <vector>

namespace folio {

struct DecoderModel {
    std::unique_ptr<gguf::File> file;
    ModelConfig config;
    DecoderWeights weights;
};

// Opens and checks a model file (config, every tensor's shape and type).
Expected<std::unique_ptr<DecoderModel>> load_decoder(const std::string& path);

// Which MLA form computes attention (§4.2 / §4.3). Auto: naive for batches of more than one
// token (cheaper for long prefill), absorbed for single-token decode. Both read the same cache.
// Queries whose keys the DSA indexer thins out always use the absorbed form.
enum class MlaForm { Auto, Naive, Absorbed };

// Which KDA form runs (MODEL_SPEC §2.4 / §2.6). Auto: chunked for batches, recurrent for decode.
enum class KdaForm { Auto, Recurrent, Chunked };

struct EvalOptions {
    KernelContext kernels;
    bool all_logits = false; // logits for every position, else only for the last one
    MlaForm mla = MlaForm::Auto;
    KdaForm kda = KdaForm::Auto;
    StepProfile* profile = nullptr; // accumulates time per phase when set
};

// Scratch buffers reused between calls (one per sequence being evaluated).
struct DecoderScratch {
    std::vector<float> x, xn, q, qa, kv, qabs, obar, o, scores, tmp, ffn_g, ffn_u, ffn_out, moe_out,
        router, expert_x, knope, vh, deq_k, deq_v, logits_in;
    // KDA layer
    std::vector<float> kq, kk, kv_, kg, kbeta, kgate, klow, ko;
    // DSA indexer
    std::vector<float> iq, iw, iscore;
    TopKScratch topk;                       // decode: kept between steps (no allocation per token)
    std::vector<TopKCandidates> topk_parts; // decode: top-k candidates per thread
    std::vector<float> kv_block;            // a cache block decoded to f32 (non-f32 storage)
    std::vector<int32_t> selected;          // per sparse query: top_k key positions, ascending
    std::vector<int32_t> all_keys;          // 0, 1, 2, ...: the keys of a dense decode query
    std::vector<int64_t> sel_offset; // per query of the batch: start in `selected` (-1 = dense)
};

// A fresh state for one sequence of at most max_tokens tokens.
// pool: the shared block pool for its MLA rows (null: a private unlimited f32 pool).
// index_type: storage of the DSA index keys (F32, F16 or Q8_0).
DecoderState make_decoder_state(const ModelConfig& config, int64_t max_tokens,
                                std::shared_ptr<BlockPool> pool = nullptr,
                                KvType index_type = KvType::F32);
inline DecoderState make_decoder_state(const ModelConfig& config, int64_t max_tokens,
                                       KvType index_type) {
    return make_decoder_state(config, max_tokens, nullptr, index_type);
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
// output in place of its placeholder tokens, MODEL_SPEC §7): one position per row, same state,
// error and logits rules. decoder_eval(tokens) == decoder_eval_embeddings(embed(tokens)).
Status decoder_eval_embeddings(const DecoderModel& model, DecoderState& state,
                               DecoderScratch& scratch, const float* embd, int64_t n,
                               const EvalOptions& options, std::vector<float>& logits);

} // namespace folio
