#include "model/mixers/kda_mixer.h"

#include "model/layer/tensor_names.h"
#include "model/mixers/kda_attention.h"
#include "model/mixers/kda_decode_team.h"
#include "model/mixers/kda_state.h"
#include "model/mixers/kda_weights.h"

namespace folio {

// Layer il's KDA tensors (src/llama-model.cpp; conv weights and ssm_a, which already holds
// −exp(A_log), are F32: the short convolution and the decay read them as floats).
Status KdaMixer::bind(const WeightBinder& b, const ModelConfig& c, uint32_t il,
                      DecoderLayer& L) const {
    namespace tn = tensor_name;
    const std::string p = tn::layer_prefix(il);
    const int64_t H = c.n_head[il];
    const int64_t E = c.n_embd, D = c.kda_head_dim, P = H * D, W = c.conv_kernel;
    L.mixer = std::make_shared<KdaWeights>();
    KdaWeights& k = mixer_weights_of<KdaWeights>(L);
    FOLIO_TRY(q, b.get(p + tn::kAttnQ, {E, P}));
    FOLIO_TRY(kk, b.get(p + tn::kKdaK, {E, P}));
    FOLIO_TRY(v, b.get(p + tn::kKdaV, {E, P}));
    FOLIO_TRY(cq, b.get_f32(p + tn::kKdaConvQ, {W, 1, P}));
    FOLIO_TRY(ck, b.get_f32(p + tn::kKdaConvK, {W, 1, P}));
    FOLIO_TRY(cv, b.get_f32(p + tn::kKdaConvV, {W, 1, P}));
    FOLIO_TRY(fa, b.get(p + tn::kKdaFA, {E, D}));
    FOLIO_TRY(fb, b.get(p + tn::kKdaFB, {D, P}));
    FOLIO_TRY(dt, b.get_f32(p + tn::kKdaDtBias, {P}));
    FOLIO_TRY(a, b.get_f32(p + tn::kKdaA, {1, H}));
    FOLIO_TRY(beta, b.get(p + tn::kKdaBeta, {E, H}));
    FOLIO_TRY(ga, b.get(p + tn::kKdaGA, {E, D}));
    FOLIO_TRY(gb, b.get(p + tn::kKdaGB, {D, P}));
    FOLIO_TRY(on, b.get_f32(p + tn::kKdaNorm, {D}));
    FOLIO_TRY(ao, b.get(p + tn::kAttnOutput, {P, E}));
    k.q = q;
    k.k = kk;
    k.v = v;
    k.conv_q = cq;
    k.conv_k = ck;
    k.conv_v = cv;
    k.f_a = fa;
    k.f_b = fb;
    k.dt_bias = dt;
    k.a = a;
    k.beta = beta;
    k.g_a = ga;
    k.g_b = gb;
    k.o_norm = on;
    L.attn_output = ao;
    return {};
}

std::unique_ptr<LayerState> KdaMixer::make_state(const ModelConfig& c, uint32_t il) const {
    return std::make_unique<KdaLayerState>(c, il);
}

Status KdaMixer::eval(const ModelConfig& c, const DecoderLayer& L, uint32_t il, DecoderState& state,
                      const float* xn, int64_t T, const EvalOptions& opt, DecoderScratch& s,
                      float* out) const {
    return kda_attention(c, L, il, state, xn, T, opt, s, out);
}

bool KdaMixer::decodes_in_team(const ModelConfig& c, const DecoderLayer&, uint32_t,
                               const EvalOptions& opt) const {
    return kda_decode_team_fits(c, opt);
}

void KdaMixer::reserve_team(const ModelConfig& c, uint32_t il, int64_t, int,
                            DecoderScratch& s) const {
    kda_decode_reserve(c, il, s);
}

void KdaMixer::decode_member(const ModelConfig& c, const DecoderLayer& L, uint32_t il,
                             DecoderState& state, const float* xn, float* x,
                             const KernelContext& tk, const EvalOptions& opt, DecoderScratch& s,
                             TeamSteps& steps, Status& st) const {
    kda_decode_member(c, L, il, state, xn, x, tk, opt, s, steps, st);
}

} // namespace folio
