#include "model/mixers/kda_attention.h"

#include "core/region_errors.h"
#include "kernels/activations.h"
#include "kernels/kda_chunk.h"
#include "kernels/matmul.h"
#include "kernels/norm.h"
#include "model/mixers/kda_delta_rule.h"
#include "model/mixers/kda_state.h"
#include "model/mixers/kda_weights.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <omp.h>

namespace folio {

namespace {

constexpr int64_t kChunk = 64; // chunk length of the chunked form

} // namespace

void short_conv(float* x, int64_t T, int64_t P, const float* weight, int64_t W, float* conv_state,
                std::vector<float>& ext) {
    // ext = [state (W−1 rows) ; x (T rows)]; y_t[c] = Σ_j w[c][j]·ext[t + j][c].
    ext.resize(static_cast<size_t>((W - 1 + T) * P));
    std::memcpy(ext.data(), conv_state, sizeof(float) * (W - 1) * P);
    std::memcpy(ext.data() + (W - 1) * P, x, sizeof(float) * T * P);
    for (int64_t t = 0; t < T; ++t) {
        float* y = x + t * P;
        for (int64_t c = 0; c < P; ++c) {
            const float* w = weight + c * W;
            float acc = 0.0f;
            for (int64_t j = 0; j < W; ++j)
                acc += w[j] * ext[(t + j) * P + c];
            y[c] = acc;
        }
    }
    std::memcpy(conv_state, ext.data() + T * P, sizeof(float) * (W - 1) * P);
}

Status kda_attention(const ModelConfig& c, const DecoderLayer& layer, uint32_t il,
                     DecoderState& state, const float* xn, int64_t T, const EvalOptions& opt,
                     DecoderScratch& s, float* out) {
    const KernelContext& k = opt.kernels;
    const KdaWeights& L = mixer_weights_of<KdaWeights>(layer);
    KdaLayerState& st = static_cast<KdaLayerState&>(*state.layer_state(il));
    const int64_t E = c.n_embd, H = c.n_head[il], D = c.kda_head_dim, P = H * D, W = c.conv_kernel;
    const size_t TP = static_cast<size_t>(T * P);

    // q̃, k̃, ṽ (activations converted once when the three weights share a format).
    s.kq.resize(TP);
    s.kk.resize(TP);
    s.kv_.resize(TP);
    s.klow.resize(static_cast<size_t>(T * D));
    s.kglow.resize(static_cast<size_t>(T * D));
    s.kbeta.resize(static_cast<size_t>(T * H));
    if (T == 1) {
        // Decode: every projection of x (q, k, v, the decay's and the gate's low-rank inputs,
        // β) in one parallel region instead of six.
        const TensorView ws[] = {L.q, L.k, L.v, L.f_a, L.g_a, L.beta};
        float* const ys[] = {s.kq.data(),   s.kk.data(),    s.kv_.data(),
                             s.klow.data(), s.kglow.data(), s.kbeta.data()};
        FOLIO_CHECK(matmul_one_input(k, ws, xn, ys));
    } else {
        QuantizedActivations qa;
        FOLIO_CHECK(quantize_activations(k, L.q.type, xn, E, T, E, &qa));
        FOLIO_CHECK(matmul(k, L.q, qa, s.kq.data(), P));
        for (auto [w, y] : {std::pair{&L.k, &s.kk}, std::pair{&L.v, &s.kv_}}) {
            if (activation_format(w->type) == qa.format)
                FOLIO_CHECK(matmul(k, *w, qa, y->data(), P));
            else
                FOLIO_CHECK(matmul(k, *w, xn, E, T, y->data(), P));
        }
        FOLIO_CHECK(matmul(k, L.f_a, xn, E, T, s.klow.data(), D));
        FOLIO_CHECK(matmul(k, L.g_a, xn, E, T, s.kglow.data(), D));
        FOLIO_CHECK(matmul(k, L.beta, xn, E, T, s.kbeta.data(), H));
    }

    // Short convolution + SiLU, then per-head L2 norm of q and k; q also gets d_k^−1/2.
    std::vector<float>& ext = s.tmp;
    short_conv(s.kq.data(), T, P, static_cast<const float*>(L.conv_q.data), W, st.conv_q.data(),
               ext);
    short_conv(s.kk.data(), T, P, static_cast<const float*>(L.conv_k.data), W, st.conv_k.data(),
               ext);
    short_conv(s.kv_.data(), T, P, static_cast<const float*>(L.conv_v.data), W, st.conv_v.data(),
               ext);
    silu(k, s.kq.data(), s.kq.data(), T * P);
    silu(k, s.kk.data(), s.kk.data(), T * P);
    silu(k, s.kv_.data(), s.kv_.data(), T * P);
    l2_norm(k, s.kq.data(), s.kq.data(), D, T * H, D, D, c.rms_eps);
    l2_norm(k, s.kk.data(), s.kk.data(), D, T * H, D, D, c.rms_eps);
    const float q_scale = 1.0f / std::sqrt(static_cast<float>(D));
    for (float& v : s.kq)
        v *= q_scale;

    // Decay g = ssm_a[h]·softplus(f_b·(f_a·x) + dt_bias) (≤ 0), β = σ(ssm_beta·x).
    s.kg.resize(TP);
    FOLIO_CHECK(matmul(k, L.f_b, s.klow.data(), D, T, s.kg.data(), P));
    const float* dt = static_cast<const float*>(L.dt_bias.data);
    const float* a = static_cast<const float*>(L.a.data);
    // Element-wise, but scalar log1p/exp showed in prefill profiles: a vector kernel, rows split
    // over the threads (decode's single row stays serial).
    const KdaGateFn gate_fn = kda_gate_kernel(k.path);
    const int ew_threads = static_cast<int>(std::max(1, k.n_threads));
#pragma omp parallel for num_threads(ew_threads) schedule(static) if (T > 1 && ew_threads > 1)
    for (int64_t t = 0; t < T; ++t)
        gate_fn(s.kg.data() + t * P, dt, a, P, D);
    for (float& b : s.kbeta)
        b = 1.0f / (1.0f + std::exp(-b));

    // The delta rule, heads in parallel (recurrent for decode, chunked for prefill).
    s.ko.resize(TP);
    const bool chunked = opt.kda == KdaForm::Chunked || (opt.kda == KdaForm::Auto && T > 1);
    const int threads = static_cast<int>(std::min<int64_t>(std::max(1, k.n_threads), H));
    const bool parallel = threads > 1 && T * D * D * H >= 65536;
    RegionErrors errors; // the chunk scratch grows with the tokens
#pragma omp parallel num_threads(threads) if (parallel)
    {
        omp_set_num_threads(1); // this task's ICV: Eigen's GEMMs stay serial in here
        KdaChunkScratch scratch;
#pragma omp for schedule(static)
        for (int64_t h = 0; h < H; ++h)
            errors.run([&] {
                KdaSequence seq;
                seq.n_tokens = T;
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
                float* S = st.s.data() + h * D * D;
                if (chunked)
                    kda_chunked(seq, kChunk, S, scratch);
                else
                    kda_recurrent(seq, S);
            });
    }
    errors.rethrow();

    // Output: RMSNorm per head · o_norm, times σ(g_b·(g_a·x)), then attn_output.
    s.kgate.resize(TP);
    FOLIO_CHECK(matmul(k, L.g_b, s.kglow.data(), D, T, s.kgate.data(), P));
    rms_norm(k, s.ko.data(), static_cast<const float*>(L.o_norm.data), s.ko.data(), D, T * H, D, D,
             c.rms_eps);
#pragma omp parallel for num_threads(ew_threads) schedule(static) if (T > 1 && ew_threads > 1)
    for (int64_t i = 0; i < static_cast<int64_t>(TP); ++i)
        s.ko[i] *= 1.0f / (1.0f + std::exp(-s.kgate[i]));
    return matmul(k, layer.attn_output, s.ko.data(), P, T, out, E);
}

} // namespace folio
