#pragma once
// What one evaluation of the decoder takes besides the model and the sequence's state: the
// options (kernel threads and path, which MLA / KDA form, profiling) and the scratch buffers
// reused between calls. Below decoder_model.h so that the layer mixers (model/mixers/) can take
// them without seeing the decoder.

#include "cache/kv_view.h"
#include "kernels/kernel_context.h"
#include "kernels/matmul.h"
#include "kernels/mqa_rows.h"
#include "kernels/thread_balance.h"
#include "model/attention/attention_flash.h"
#include "model/attention/index_select.h"
#include "model/layer/step_profile.h"

#include <cstdint>
#include <vector>

namespace folio {

// Which MLA form computes attention. Auto: naive for batches of more than one
// token (cheaper for long prefill), absorbed for single-token decode. Both read the same cache.
// Queries whose keys the DSA indexer thins out always use the absorbed form.
enum class MlaForm { Auto, Naive, Absorbed };

// Which KDA form runs. Auto: chunked for batches, recurrent for decode.
enum class KdaForm { Auto, Recurrent, Chunked };

struct EvalOptions {
    KernelContext kernels;
    bool all_logits = false; // logits for every position, else only for the last one
    MlaForm mla = MlaForm::Auto;
    KdaForm kda = KdaForm::Auto;
    StepProfile* profile = nullptr; // accumulates time per phase when set
    // A one-token step on several threads runs as one parallel region when every layer can
    // (model/decoder/decode_region.h); false: a region per kernel (the comparison in tests).
    bool decode_region = true;
};

// One token's MLPs in one parallel region (model/decoder/token_ffn.h): per MLP its F gate and up
// values and its E outputs; the input in each activation format the gates and ups take; each
// thread's down-projection inputs (thread · MLPs + MLP); in a decode region, each thread's own
// conversions of the input.
struct TokenFfnScratch {
    std::vector<float> g, u, y;
    std::vector<QuantizedActivations> inputs, down_inputs;
    std::vector<std::vector<QuantizedActivations>> team_inputs;
};

// One SwiGLU MLP's buffers (model/decoder/moe_ffn.h dense_ffn).
struct FfnScratch {
    std::vector<float> g, u;
    QuantizedActivations act; // input converted once for gate and up (storage reused)
    TokenFfnScratch token;    // decode (one token)
};

// One routed expert's run in a batch: its gathered input rows, its MLP and its output rows.
struct ExpertScratch {
    std::vector<float> x, out;
    FfnScratch ffn;
};

// One thread's buffers for MLA's naive form, one head at a time (mixers/mla_attention.cpp):
// W_UK,h and W_UV,h in f32, the head's keys and values for every cached row, a cache block
// decoded to f32 and the flash attention's scratch.
struct MlaHeadScratch {
    std::vector<float> deq_k, deq_v, k, v, kv_block;
    FlashScratch flash;
    size_t floats() const {
        return deq_k.capacity() + deq_v.capacity() + k.capacity() + v.capacity() +
               kv_block.capacity() + flash.scores.capacity() + flash.state.capacity() +
               flash.rescale.capacity() + flash.block.capacity();
    }
};

// A decode region's buffers (model/decoder/decode_region.h): each thread's own normalized input
// and q latent, and what its threads share within a layer (the cache view one thread takes,
// the key parts' softmax states).
struct TeamScratch {
    std::vector<std::vector<float>> xn, qa;
    KvView view;
    std::vector<MqaRowsState> states;
};

// Scratch buffers reused between calls (one per sequence being evaluated).
struct DecoderScratch {
    std::vector<float> x, xn, q, qa, kv, qabs, obar, o, scores, tmp, ffn_out, router, logits_in;
    ThreadBalance balance; // decode's per-thread speeds (kernels/thread_balance.h)
    TeamScratch team;      // decode as one region
    FfnScratch ffn;
    std::vector<ExpertScratch> experts; // one per thread running experts side by side
    std::vector<float> expert_rows;     // batch MoE: each (token, slot)'s expert output
    // KDA layer
    std::vector<float> kq, kk, kv_, kg, kbeta, kgate, klow, kglow, ko;
    // DSA indexer
    std::vector<float> iq, iw;
    IndexSelectScratch index_select;
    std::vector<MlaHeadScratch> mla_heads; // MLA naive form: one per thread
    std::vector<int32_t> selected;         // per sparse query: top_k key positions, ascending
    std::vector<int32_t> all_keys;         // 0, 1, 2, ...: the keys of a dense decode query
    std::vector<int64_t> sel_offset; // per query of the batch: start in `selected` (-1 = dense)
};

// Bytes the buffers hold (capacity); a kind that adds buffers counts them here.
size_t decoder_scratch_bytes(const DecoderScratch& d);

} // namespace folio
