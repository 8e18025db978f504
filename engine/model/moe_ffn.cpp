#include "model/moe_ffn.h"

#include "kernels/activations.h"
#include "kernels/matmul.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace folio {

ExpertChoice route_token(const ModelConfig& c, const float* logits, const float* bias) {
    const int64_t X = c.n_expert, K = c.n_expert_used;
    std::vector<float> probs(static_cast<size_t>(X));
    if (c.gating == GatingFunc::Sigmoid) {
        for (int64_t e = 0; e < X; ++e)
            probs[e] = 1.0f / (1.0f + std::exp(-logits[e]));
    } else if (c.gating == GatingFunc::Softmax) {
        const float mx = *std::max_element(logits, logits + X);
        double sum = 0;
        for (int64_t e = 0; e < X; ++e)
            sum += probs[e] = std::exp(logits[e] - mx);
        for (auto& p : probs)
            p = static_cast<float>(p / sum);
    } else { // SoftmaxWeights: select on the raw logits, softmax over the selected ones below
        std::copy(logits, logits + X, probs.begin());
    }
    // Selection scores: probabilities plus the correction bias (selection only, §6.1).
    std::vector<float> sel(probs);
    if (bias)
        for (int64_t e = 0; e < X; ++e)
            sel[e] += bias[e];
    if (c.n_expert_group > 1) {
        // Group score = sum of the two best selection scores in the group; keep the best
        // n_expert_group_used groups, mask the others with -inf.
        const int64_t G = c.n_expert_group, per = X / G;
        std::vector<std::pair<float, int64_t>> group_scores;
        for (int64_t g = 0; g < G; ++g) {
            std::vector<float> v(sel.begin() + g * per, sel.begin() + (g + 1) * per);
            std::partial_sort(v.begin(), v.begin() + std::min<int64_t>(2, per), v.end(),
                              std::greater<float>());
            group_scores.push_back({per >= 2 ? v[0] + v[1] : v[0], g});
        }
        std::stable_sort(group_scores.begin(), group_scores.end(),
                         [](const auto& a, const auto& b) { return a.first > b.first; });
        std::vector<bool> keep(static_cast<size_t>(G), false);
        for (uint32_t i = 0; i < c.n_expert_group_used; ++i)
            keep[group_scores[i].second] = true;
        for (int64_t e = 0; e < X; ++e)
            if (!keep[e / per])
                sel[e] = -std::numeric_limits<float>::infinity();
    }
    std::vector<int32_t> order(static_cast<size_t>(X));
    std::iota(order.begin(), order.end(), 0);
    std::partial_sort(order.begin(), order.begin() + K, order.end(), [&](int32_t a, int32_t b) {
        return sel[a] > sel[b] || (sel[a] == sel[b] && a < b);
    });
    ExpertChoice choice;
    choice.experts.assign(order.begin(), order.begin() + K);
    for (int32_t e : choice.experts)
        choice.weights.push_back(probs[e]); // weights from the unbiased scores
    if (c.gating == GatingFunc::SoftmaxWeights) {
        const float mx = *std::max_element(choice.weights.begin(), choice.weights.end());
        double sum = 0;
        for (auto& w : choice.weights)
            sum += w = std::exp(w - mx);
        for (auto& w : choice.weights)
            w = static_cast<float>(w / sum);
    }
    if (c.expert_weights_norm) {
        float sum = 0;
        for (float w : choice.weights)
            sum += w;
        sum = std::max(sum, 6.103515625e-5f); // llama.cpp's clamp of the denominator
        for (auto& w : choice.weights)
            w /= sum;
    }
    if (c.expert_weights_scale != 0.0f && c.expert_weights_scale != 1.0f)
        for (auto& w : choice.weights)
            w *= c.expert_weights_scale;
    return choice;
}

Status dense_ffn(const KernelContext& kctx, const TensorView& gate, const TensorView& up,
                 const TensorView& down, const float* xn, int64_t T, int64_t E, DecoderScratch& s,
                 float* out) {
    const int64_t F = gate.ne[1];
    s.ffn_g.resize(static_cast<size_t>(T * F));
    s.ffn_u.resize(static_cast<size_t>(T * F));
    // Convert the activations once for both projections (same format when types match), into
    // storage kept from call to call.
    QuantizedActivations& qa = s.ffn_act;
    FOLIO_CHECK(quantize_activations(kctx, gate.type, xn, E, T, E, &qa));
    FOLIO_CHECK(matmul(kctx, gate, qa, s.ffn_g.data(), F));
    if (activation_format(up.type) == qa.format) {
        FOLIO_CHECK(matmul(kctx, up, qa, s.ffn_u.data(), F));
    } else {
        FOLIO_CHECK(matmul(kctx, up, xn, E, T, s.ffn_u.data(), F));
    }
    swiglu(kctx, s.ffn_g.data(), s.ffn_u.data(), s.ffn_g.data(), T * F);
    return matmul(kctx, down, s.ffn_g.data(), F, T, out, E);
}

Status moe_ffn(const ModelConfig& c, const DecoderLayer& L, const KernelContext& kctx,
               const float* xn, int64_t T, DecoderScratch& s, float* out) {
    const int64_t E = c.n_embd, X = c.n_expert;
    s.router.resize(static_cast<size_t>(T * X));
    FOLIO_CHECK(matmul(kctx, L.gate_inp, xn, E, T, s.router.data(), X));
    const float* bias = static_cast<const float*>(L.exp_probs_b.data);

    // Group tokens by expert: for expert e, the tokens routed to it and their weights.
    std::vector<std::vector<int32_t>> tokens_of(static_cast<size_t>(X));
    std::vector<std::vector<float>> weights_of(static_cast<size_t>(X));
    for (int64_t t = 0; t < T; ++t) {
        ExpertChoice ch = route_token(c, s.router.data() + t * X, bias);
        for (size_t i = 0; i < ch.experts.size(); ++i) {
            tokens_of[ch.experts[i]].push_back(static_cast<int32_t>(t));
            weights_of[ch.experts[i]].push_back(ch.weights[i]);
        }
    }

    std::fill(out, out + T * E, 0.0f);
    for (int64_t e = 0; e < X; ++e) {
        const auto& toks = tokens_of[e];
        const int64_t n = static_cast<int64_t>(toks.size());
        if (n == 0)
            continue;
        // Gather the routed rows, run the expert's SwiGLU on them as one batch.
        s.expert_x.resize(static_cast<size_t>(n * E));
        for (int64_t i = 0; i < n; ++i)
            std::copy(xn + toks[i] * E, xn + (toks[i] + 1) * E, s.expert_x.begin() + i * E);
        FOLIO_TRY(g, slice_matrix(L.gate_exps, e));
        FOLIO_TRY(u, slice_matrix(L.up_exps, e));
        FOLIO_TRY(d, slice_matrix(L.down_exps, e));
        s.moe_out.resize(static_cast<size_t>(n * E));
        FOLIO_CHECK(dense_ffn(kctx, g, u, d, s.expert_x.data(), n, E, s, s.moe_out.data()));
        for (int64_t i = 0; i < n; ++i) {
            const float w = weights_of[e][i];
            float* dst = out + toks[i] * E;
            const float* src = s.moe_out.data() + i * E;
            for (int64_t j = 0; j < E; ++j)
                dst[j] += w * src[j];
        }
    }
    if (L.gate_shexp.data != nullptr) {
        s.tmp.resize(static_cast<size_t>(T * E));
        FOLIO_CHECK(
            dense_ffn(kctx, L.gate_shexp, L.up_shexp, L.down_shexp, xn, T, E, s, s.tmp.data()));
        for (int64_t i = 0; i < T * E; ++i)
            out[i] += s.tmp[i];
    }
    return {};
}

} // namespace folio
