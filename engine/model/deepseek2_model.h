#pragma once
// deepseek2 decoder (Kimi-K2, Kimi-VL text, DeepSeek-V3): MLA attention + MoE FFN
// (spec/MODEL_SPEC.md §1, §4, §6; spec/GGUF_LAYOUT.md §3). Weights stay in the mmapped file.

#include "folio/error.h"
#include "gguf/gguf_file.h"
#include "kernels/kernel_context.h"
#include "model/deepseek2_weights.h"
#include "model/mla_cache.h"
#include "model/model_config.h"

#include <memory>
#include <string>
#include <vector>

namespace folio {

struct Deepseek2Model {
    std::unique_ptr<gguf::File> file;
    ModelConfig config;
    Deepseek2Weights weights;
};

Expected<std::unique_ptr<Deepseek2Model>> load_deepseek2(const std::string& path);

// Which MLA form computes attention (§4.2 / §4.3). Auto: naive for batches of more than one
// token (cheaper for long prefill), absorbed for single-token decode. Both read the same cache.
enum class MlaForm { Auto, Naive, Absorbed };

struct EvalOptions {
    KernelContext kernels;
    bool all_logits = false; // logits for every position, else only for the last one
    MlaForm mla = MlaForm::Auto;
};

// Scratch buffers reused between calls (one per sequence being evaluated).
struct Deepseek2Scratch {
    std::vector<float> x, xn, q, qa, kv, qabs, obar, o, scores, tmp, ffn_g, ffn_u, ffn_out, moe_out,
        router, expert_x, knope, vh, deq_k, deq_v, logits_in;
};

// Evaluates `n` tokens at positions cache.size() .. cache.size()+n-1, appends their KV rows to
// the cache, and writes logits: [n][n_vocab] with all_logits, else [n_vocab] for the last
// token. Token ids outside the vocabulary are an error (nothing is evaluated).
Status deepseek2_eval(const Deepseek2Model& model, MlaCache& cache, Deepseek2Scratch& scratch,
                      const int32_t* tokens, int64_t n, const EvalOptions& options,
                      std::vector<float>& logits);

MlaCache make_mla_cache(const ModelConfig& config, int64_t max_tokens);

} // namespace folio
