#include "model/mixers/kda_decode_team.h"

#include "kernels/activations.h"
#include "kernels/decode_team.h"
#include "kernels/kda_chunk.h"
#include "kernels/matmul.h"
#include "kernels/norm.h"
#include "model/mixers/kda_delta_rule.h"
#include "model/mixers/kda_state.h"
#include "model/mixers/kda_weights.h"

#include <algorithm>
#include <cmath>

namespace folio {

namespace {

// short_conv for one token on channels [c0, c1): y[c] = Σ_j w[c][j]·ext[j][c] with
// ext = [state (W−1 rows); x], and the state moved on by one row (short_conv's arithmetic).
void short_conv_channels(float* x, int64_t P, const float* weight, int64_t W, float* state,
                         int64_t c0, int64_t c1) {
    for (int64_t c = c0; c < c1; ++c) {
        const float* w = weight + c * W;
        const float in = x[c];
        float acc = 0.0f;
        for (int64_t j = 0; j < W; ++j)
            acc += w[j] * (j < W - 1 ? state[j * P + c] : in);
        for (int64_t j = 0; j + 1 < W - 1; ++j)
            state[j * P + c] = state[(j + 1) * P + c];
        if (W > 1)
            state[(W - 2) * P + c] = in;
        x[c] = acc;
    }
}

// Rows [r0, r1) of y = W·x for a 2-D weight, on this thread.
Status rows_of(const KernelContext& one, const TensorView& w, const float* x, int64_t r0,
               int64_t r1, float* y) {
    if (r1 <= r0)
        return {};
    FOLIO_TRY(part, slice_rows(w, r0, r1));
    return matmul(one, part, x, w.ne[0], 1, y + r0, w.ne[1]);
}

} // namespace

bool kda_decode_team_fits(const ModelConfig& c, const EvalOptions& opt) {
    return c.kda_head_dim % 16 == 0 && opt.kda != KdaForm::Chunked;
}

void kda_decode_reserve(const ModelConfig& c, uint32_t il, DecoderScratch& s) {
    const auto P = static_cast<size_t>(c.n_head[il] * c.kda_head_dim);
    const auto D = static_cast<size_t>(c.kda_head_dim);
    for (std::vector<float>* v : {&s.kq, &s.kk, &s.kv_, &s.kg, &s.ko, &s.kgate})
        if (v->size() < P)
            v->resize(P);
    for (std::vector<float>* v : {&s.klow, &s.kglow})
        if (v->size() < D)
            v->resize(D);
    if (s.kbeta.size() < static_cast<size_t>(c.n_head[il]))
        s.kbeta.resize(static_cast<size_t>(c.n_head[il]));
}

void kda_decode_member(const ModelConfig& c, const DecoderLayer& layer, uint32_t il,
                       DecoderState& state, const float* xn, float* x, const KernelContext& tk,
                       const EvalOptions& opt, DecoderScratch& s, TeamSteps& steps, Status& st) {
    const KdaWeights& L = mixer_weights_of<KdaWeights>(layer);
    KdaLayerState& ls = static_cast<KdaLayerState&>(*state.layer_state(il));
    const DecodeTeam& team = *tk.team;
    const KernelContext one{1, tk.path};
    const int64_t E = c.n_embd, H = c.n_head[il], D = c.kda_head_dim, P = H * D, W = c.conv_kernel;
    PhaseTimer timer(team.me == 0 ? opt.profile : nullptr, StepPhase::KdaMixer);

    steps.run(st, [&] {
        const TensorView ws[] = {L.q, L.k, L.v, L.f_a, L.g_a, L.beta};
        float* const ys[] = {s.kq.data(),   s.kk.data(),    s.kv_.data(),
                             s.klow.data(), s.kglow.data(), s.kbeta.data()};
        return matmul_one_input(tk, ws, xn, ys);
    });
    team_barrier();

    const int64_t h0 = H * team.me / team.threads, h1 = H * (team.me + 1) / team.threads;
    const int64_t c0 = h0 * D, c1 = h1 * D, n = c1 - c0;
    steps.run(st, [&]() -> Status {
        if (n <= 0)
            return {};
        short_conv_channels(s.kq.data(), P, static_cast<const float*>(L.conv_q.data), W,
                            ls.conv_q.data(), c0, c1);
        short_conv_channels(s.kk.data(), P, static_cast<const float*>(L.conv_k.data), W,
                            ls.conv_k.data(), c0, c1);
        short_conv_channels(s.kv_.data(), P, static_cast<const float*>(L.conv_v.data), W,
                            ls.conv_v.data(), c0, c1);
        for (std::vector<float>* v : {&s.kq, &s.kk, &s.kv_})
            silu(one, v->data() + c0, v->data() + c0, n);
        l2_norm(one, s.kq.data() + c0, s.kq.data() + c0, D, h1 - h0, D, D, c.rms_eps);
        l2_norm(one, s.kk.data() + c0, s.kk.data() + c0, D, h1 - h0, D, D, c.rms_eps);
        const float q_scale = 1.0f / std::sqrt(static_cast<float>(D));
        for (int64_t i = c0; i < c1; ++i)
            s.kq[i] *= q_scale;
        // Decay g = ssm_a[h]·softplus(f_b·(f_a·x) + dt_bias), β = σ(ssm_beta·x).
        FOLIO_CHECK(rows_of(one, L.f_b, s.klow.data(), c0, c1, s.kg.data()));
        kda_gate_kernel(tk.path)(s.kg.data() + c0, static_cast<const float*>(L.dt_bias.data) + c0,
                                 static_cast<const float*>(L.a.data) + h0, n, D);
        for (int64_t h = h0; h < h1; ++h)
            s.kbeta[h] = 1.0f / (1.0f + std::exp(-s.kbeta[h]));
        for (int64_t h = h0; h < h1; ++h) {
            KdaSequence seq;
            seq.n_tokens = 1;
            seq.dk = D;
            seq.dv = D;
            seq.q = s.kq.data() + h * D;
            seq.k = s.kk.data() + h * D;
            seq.qk_stride = P;
            seq.v = s.kv_.data() + h * D;
            seq.v_stride = P;
            seq.g = s.kg.data() + h * D;
            seq.g_stride = P;
            seq.beta = s.kbeta.data() + h;
            seq.beta_stride = H;
            seq.out = s.ko.data() + h * D;
            seq.out_stride = P;
            kda_recurrent(seq, ls.s.data() + h * D * D);
        }
        // Output: RMSNorm per head · o_norm, times σ(g_b·(g_a·x)).
        FOLIO_CHECK(rows_of(one, L.g_b, s.kglow.data(), c0, c1, s.kgate.data()));
        rms_norm(one, s.ko.data() + c0, static_cast<const float*>(L.o_norm.data), s.ko.data() + c0,
                 D, h1 - h0, D, D, c.rms_eps);
        for (int64_t i = c0; i < c1; ++i)
            s.ko[i] *= 1.0f / (1.0f + std::exp(-s.kgate[i]));
        return {};
    });
    team_barrier();

    steps.run(st, [&]() -> Status {
        FOLIO_CHECK(matmul(tk, layer.attn_output, s.ko.data(), P, 1, s.ffn_out.data(), E));
        const RowShare r = team_share(tk, E);
        for (int64_t i = r.begin; i < r.end; ++i)
            x[i] += s.ffn_out[i];
        return {};
    });
    team_barrier();
}

} // namespace folio
