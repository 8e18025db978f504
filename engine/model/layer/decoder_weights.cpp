#include "model/layer/decoder_weights.h"

#include "model/layer/tensor_names.h"

namespace folio {

Expected<DecoderWeights> bind_decoder_weights(const gguf::File& file, const ModelConfig& c,
                                              const DevicePlan& plan,
                                              const std::vector<std::unique_ptr<Device>>& devices,
                                              const BindMixer& bind_mixer) {
    namespace tn = tensor_name;
    if (plan.layers.size() != c.n_layer)
        return make_error(ErrorCode::Internal, "the device plan does not cover every layer");
    WeightBinder io{file, *devices[plan.io]};
    DecoderWeights w;
    const bool kimi = c.arch == "kimi-linear" || c.arch == "kimi-hybrid";
    const int64_t E = c.n_embd, V = c.n_vocab;
    FOLIO_TRY(tok, io.get(tn::kTokenEmbd, {E, V}));
    w.token_embd = tok;
    FOLIO_TRY(onorm, io.get_f32(tn::kOutputNorm, {E}));
    w.output_norm = onorm;
    FOLIO_TRY(out, io.get(tn::kOutput, {E, V}, !kimi)); // kimi-linear: required
    w.output = out.data ? out : tok;

    for (uint32_t il = 0; il < c.n_layer; ++il) {
        const std::string p = tn::layer_prefix(il);
        const WeightBinder b{file, *devices[plan.layers[il].weights]};
        DecoderLayer L;
        FOLIO_TRY(an, b.get_f32(p + tn::kAttnNorm, {E}));
        L.attn_norm = an;
        FOLIO_CHECK(bind_mixer(b, il, L));
        FOLIO_TRY(fn, b.get_f32(p + tn::kFfnNorm, {E}));
        L.ffn_norm = fn;
        if (!c.is_moe_layer(il)) {
            const int64_t F = c.n_ff[il];
            FOLIO_TRY(g, b.get(p + tn::kFfnGate, {E, F}));
            FOLIO_TRY(u, b.get(p + tn::kFfnUp, {E, F}));
            FOLIO_TRY(d, b.get(p + tn::kFfnDown, {F, E}));
            L.ffn_gate = g;
            L.ffn_up = u;
            L.ffn_down = d;
        } else {
            const int64_t X = c.n_expert, Fe = c.n_ff_exp;
            FOLIO_TRY(gi, b.get(p + tn::kFfnGateInp, {E, X}));          // a matmul: any type
            FOLIO_TRY(bias, b.get_f32(p + tn::kExpProbsB, {X}, !kimi)); // kimi: required
            FOLIO_TRY(ge, b.get(p + tn::kFfnGateExps, {E, Fe, X}));
            FOLIO_TRY(ue, b.get(p + tn::kFfnUpExps, {E, Fe, X}));
            FOLIO_TRY(de, b.get(p + tn::kFfnDownExps, {Fe, E, X}));
            L.gate_inp = gi;
            L.exp_probs_b = bias;
            L.gate_exps = ge;
            L.up_exps = ue;
            L.down_exps = de;
            // kimi-linear's shared experts are optional tensors; deepseek2/32 follow the count.
            const bool shared = c.n_expert_shared > 0 && (!kimi || b.has(p + tn::kFfnGateShexp));
            if (shared) {
                const int64_t Fs = Fe * c.n_expert_shared;
                FOLIO_TRY(gs, b.get(p + tn::kFfnGateShexp, {E, Fs}));
                FOLIO_TRY(us, b.get(p + tn::kFfnUpShexp, {E, Fs}));
                FOLIO_TRY(ds, b.get(p + tn::kFfnDownShexp, {Fs, E}));
                L.gate_shexp = gs;
                L.up_shexp = us;
                L.down_shexp = ds;
            }
        }
        w.layers.push_back(L);
    }
    return w;
}

} // namespace folio
