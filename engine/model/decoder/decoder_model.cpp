#include "model/decoder/decoder_model.h"

#include "backend/cpu_device.h"
#include "kernels/get_rows.h"
#include "kernels/matmul.h"
#include "kernels/norm.h"
#include "model/decoder/decode_region.h"
#include "model/decoder/layer_needs.h"
#include "model/decoder/moe_ffn.h"
#include "model/mixers/mixer_registry.h"

#include <string>

namespace folio {

Expected<std::unique_ptr<DecoderModel>> load_decoder(const std::string& path, KvType kv_type) {
    FOLIO_TRY(file, gguf::File::open(path));
    FOLIO_TRY(config, read_model_config(*file));
    const ModelConfig& c = config;
    auto model = std::make_unique<DecoderModel>();
    model->devices.push_back(std::make_unique<CpuDevice>());
    std::vector<const Device*> offered;
    for (const auto& d : model->devices)
        offered.push_back(d.get());
    FOLIO_TRY(plan,
              plan_devices(plan_input_of(*file, c, kv_type, KvType::F32, c.n_ctx_train), offered));
    for (const LayerPlacement& l : plan.layers)
        if (l.kv != plan.layers.front().kv)
            return make_error(ErrorCode::Unsupported,
                              "the device plan splits the KV cache over devices; the cache has "
                              "one block pool");
    FOLIO_TRY(weights,
              bind_decoder_weights(*file, config, plan, model->devices,
                                   [&c](const WeightBinder& b, uint32_t il, DecoderLayer& L) {
                                       return layer_mixer(c.mixer[il]).bind(b, c, il, L);
                                   }));
    model->file = std::move(file);
    model->config = std::move(config);
    model->weights = std::move(weights);
    model->placement = std::move(plan);
    return model;
}

const Device& decoder_kv_device(const DecoderModel& model) {
    const DevicePlan& p = model.placement;
    return *model.devices[p.layers.empty() ? p.io : p.layers.front().kv];
}

DecoderState make_decoder_state(const ModelConfig& c, int64_t max_tokens,
                                std::shared_ptr<BlockPool> pool, KvType token_row_type) {
    SequenceLayout layout;
    layout.token_row_type = token_row_type;
    for (uint32_t il = 0; il < c.n_layer; ++il) {
        const LayerMixer& m = layer_mixer(c.mixer[il]);
        layout.cache_rows.push_back(m.keeps_cache_rows(c, il));
        layout.token_rows.push_back(m.make_token_rows(c, il, max_tokens, token_row_type));
        layout.states.push_back(m.make_state(c, il));
    }
    return DecoderState(c, std::move(layout), max_tokens, std::move(pool));
}

namespace {

// One block (the pre-norm residual layer of DeepSeek-V2, arXiv:2405.04434):
// x += Mixer(RMSNorm(x)); x += FFN(RMSNorm(x)).
Status eval_layer(const DecoderModel& model, uint32_t il, DecoderState& state, DecoderScratch& s,
                  int64_t n, const EvalOptions& opt) {
    const ModelConfig& c = model.config;
    const DecoderLayer& L = model.weights.layers[il];
    const KernelContext& k = opt.kernels;
    const int64_t E = c.n_embd;
    const LayerMixer& mixer_of_layer = layer_mixer(c.mixer[il]);
    const std::optional<StepPhase> phase = mixer_of_layer.phase();
    // Without a phase the mixer times its own phases: this timer counts nothing.
    PhaseTimer mixer(phase ? opt.profile : nullptr, phase.value_or(StepPhase{}));
    rms_norm(k, s.x.data(), static_cast<const float*>(L.attn_norm.data), s.xn.data(), E, n, E, E,
             c.rms_eps);
    FOLIO_CHECK(mixer_of_layer.eval(c, L, il, state, s.xn.data(), n, opt, s, s.ffn_out.data()));
    for (int64_t i = 0; i < n * E; ++i)
        s.x[i] += s.ffn_out[i];
    mixer.stop();

    PhaseTimer ffn(opt.profile, StepPhase::Ffn);

    rms_norm(k, s.x.data(), static_cast<const float*>(L.ffn_norm.data), s.xn.data(), E, n, E, E,
             c.rms_eps);
    FOLIO_CHECK(c.is_moe_layer(il) ? moe_ffn(c, L, k, s.xn.data(), n, s, s.ffn_out.data())
                                   : dense_ffn(k, L.ffn_gate, L.ffn_up, L.ffn_down, s.xn.data(), n,
                                               E, s.ffn, s.ffn_out.data()));
    for (int64_t i = 0; i < n * E; ++i)
        s.x[i] += s.ffn_out[i];
    return {};
}

Status check_batch(const DecoderState& state, int64_t n) {
    if (n <= 0)
        return make_error(ErrorCode::InvalidArgument, "no tokens to evaluate");
    if (state.size() + n > state.max_tokens())
        return make_error(ErrorCode::InvalidArgument,
                          "context is full: " + std::to_string(state.size()) + " + " +
                              std::to_string(n) + " tokens exceed " +
                              std::to_string(state.max_tokens()));
    return {};
}

Status check_tokens(const ModelConfig& c, const int32_t* tokens, int64_t n) {
    const int64_t V = c.n_vocab;
    for (int64_t i = 0; i < n; ++i)
        if (tokens[i] < 0 || tokens[i] >= static_cast<int32_t>(V))
            return make_error(ErrorCode::InvalidArgument, "token id " + std::to_string(tokens[i]) +
                                                              " at index " + std::to_string(i) +
                                                              " is outside the vocabulary (" +
                                                              std::to_string(V) + " tokens)");
    return {};
}

// The layer stack, final norm and output projection on the n input rows
// already in s.x ([n][n_embd]); the batch was checked by the caller.
Status eval_rows(const DecoderModel& model, DecoderState& state, DecoderScratch& s, int64_t n,
                 const EvalOptions& options, std::vector<float>& logits) {
    EvalOptions opt = options;
    if (opt.kernels.balance == nullptr)
        opt.kernels.balance = &s.balance; // the sequence's threads' speeds, kept between calls
    const ModelConfig& c = model.config;
    const DecoderWeights& w = model.weights;
    const KernelContext& k = opt.kernels;
    const int64_t E = c.n_embd, V = c.n_vocab;
    s.xn.resize(static_cast<size_t>(n * E));
    s.ffn_out.resize(static_cast<size_t>(n * E));

    if (opt.profile)
        ++opt.profile->steps;
    PhaseTimer book(opt.profile, StepPhase::Bookkeeping);
    BlockPool& pool = *state.kv().pool();
    pool.next_step(); // blocks this call touches stay in RAM until it is done
    book.stop();
    const bool one_region = decode_region_fits(model, n, opt);
    for (uint32_t il = 0; il < (one_region ? 1u : c.n_layer); ++il) {
        Status st = one_region ? decode_layers_in_region(model, state, s, opt)
                               : eval_layer(model, il, state, s, n, opt);
        if (!st) {
            // Cache rows of this call are dropped; recurrent states may be half-updated: start
            // over.
            if (state.recurrent())
                state.clear();
            else
                (void)state.truncate(state.size());
            return st;
        }
    }
    PhaseTimer book_end(opt.profile, StepPhase::Bookkeeping);
    state.commit(n);
    state.account_fixed_bytes();
    pool.enforce_budget();
    book_end.stop();

    PhaseTimer output(opt.profile, StepPhase::Output);

    // Final norm and the output projection for the requested rows.
    const int64_t first = opt.all_logits ? 0 : n - 1;
    const int64_t rows = n - first;
    rms_norm(k, s.x.data() + first * E, static_cast<const float*>(w.output_norm.data), s.xn.data(),
             E, rows, E, E, c.rms_eps);
    logits.resize(static_cast<size_t>(rows * V));
    return matmul(k, w.output, s.xn.data(), E, rows, logits.data(), V);
}

} // namespace

Status decoder_embed_tokens(const DecoderModel& model, const int32_t* tokens, int64_t n, float* out,
                            const KernelContext& kernels) {
    if (n <= 0)
        return make_error(ErrorCode::InvalidArgument, "no tokens to embed");
    FOLIO_CHECK(check_tokens(model.config, tokens, n));
    return get_rows(kernels, model.weights.token_embd, tokens, n, out, model.config.n_embd);
}

Status decoder_eval(const DecoderModel& model, DecoderState& state, DecoderScratch& s,
                    const int32_t* tokens, int64_t n, const EvalOptions& opt,
                    std::vector<float>& logits) {
    if (n <= 0)
        return make_error(ErrorCode::InvalidArgument, "no tokens to evaluate");
    FOLIO_CHECK(check_tokens(model.config, tokens, n));
    FOLIO_CHECK(check_batch(state, n));
    s.x.resize(static_cast<size_t>(n * model.config.n_embd));
    FOLIO_CHECK(decoder_embed_tokens(model, tokens, n, s.x.data(), opt.kernels));
    return eval_rows(model, state, s, n, opt, logits);
}

Status decoder_eval_embeddings(const DecoderModel& model, DecoderState& state, DecoderScratch& s,
                               const float* embd, int64_t n, const EvalOptions& opt,
                               std::vector<float>& logits) {
    FOLIO_CHECK(check_batch(state, n));
    const size_t count = static_cast<size_t>(n * model.config.n_embd);
    s.x.assign(embd, embd + count);
    return eval_rows(model, state, s, n, opt, logits);
}

} // namespace folio
