#include "model/decoder/moe_ffn.h"

#include "core/alloc_faults.h"
#include "core/region_errors.h"
#include "kernels/activations.h"
#include "kernels/matmul.h"
#include "kernels/parallel.h"
#include "model/decoder/token_ffn.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#ifdef _OPENMP
#include <omp.h>
#endif

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
    // Selection scores: probabilities plus the correction bias (selection only).
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
                 const TensorView& down, const float* xn, int64_t T, int64_t E, FfnScratch& s,
                 float* out) {
    if (T == 1 && kctx.n_threads > 1) {
        const TokenMlp mlp{gate, up, down, 1.0f};
        return token_ffn(kctx, {&mlp, 1}, xn, E, s.token, out);
    }
    const int64_t F = gate.ne[1];
    s.g.resize(static_cast<size_t>(T * F));
    s.u.resize(static_cast<size_t>(T * F));
    // Convert the activations once for both projections (same format when types match), into
    // storage kept from call to call.
    QuantizedActivations& qa = s.act;
    FOLIO_CHECK(quantize_activations(kctx, gate.type, xn, E, T, E, &qa));
    FOLIO_CHECK(matmul(kctx, gate, qa, s.g.data(), F));
    if (activation_format(up.type) == qa.format) {
        FOLIO_CHECK(matmul(kctx, up, qa, s.u.data(), F));
    } else {
        FOLIO_CHECK(matmul(kctx, up, xn, E, T, s.u.data(), F));
    }
    swiglu(kctx, s.g.data(), s.u.data(), s.g.data(), T * F);
    return matmul(kctx, down, s.g.data(), F, T, out, E);
}

namespace {

// The ranks 0 .. K-1 of a token's experts, ordered by expert id: the order their outputs are
// summed in, so that the sum does not depend on the routing scores' order.
std::vector<int32_t> by_expert_id(const ExpertChoice& ch) {
    std::vector<int32_t> order(ch.experts.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(),
              [&](int32_t a, int32_t b) { return ch.experts[a] < ch.experts[b]; });
    return order;
}

// The tokens routed to one expert, and where each one's output goes.
struct ExpertBatch {
    int32_t expert = 0;
    std::vector<int32_t> tokens;
    std::vector<int32_t> slots; // row of expert_rows: token · expert_used_count + rank
};

// Expert e's SwiGLU on its gathered tokens, one thread; the output rows go to their slots.
Status run_expert(const DecoderLayer& L, const KernelContext& kctx, const float* xn, int64_t E,
                  const ExpertBatch& b, ExpertScratch& w, float* expert_rows) {
    const auto n = static_cast<int64_t>(b.tokens.size());
    if (w.x.size() < static_cast<size_t>(n * E)) // grows, on a worker thread when side by side
        region_allocation_fault_point(sizeof(float) * static_cast<size_t>(n * E));
    w.x.resize(static_cast<size_t>(n * E));
    for (int64_t i = 0; i < n; ++i)
        std::copy(xn + b.tokens[i] * E, xn + (b.tokens[i] + 1) * E, w.x.begin() + i * E);
    FOLIO_TRY(g, slice_matrix(L.gate_exps, b.expert));
    FOLIO_TRY(u, slice_matrix(L.up_exps, b.expert));
    FOLIO_TRY(d, slice_matrix(L.down_exps, b.expert));
    w.out.resize(static_cast<size_t>(n * E));
    FOLIO_CHECK(dense_ffn(kctx, g, u, d, w.x.data(), n, E, w.ffn, w.out.data()));
    for (int64_t i = 0; i < n; ++i)
        std::copy(w.out.begin() + i * E, w.out.begin() + (i + 1) * E,
                  expert_rows + static_cast<int64_t>(b.slots[i]) * E);
    return {};
}

} // namespace

Status token_mlps(const ModelConfig& c, const DecoderLayer& L, const float* router,
                  std::vector<TokenMlp>& mlps) {
    const ExpertChoice ch = route_token(c, router, static_cast<const float*>(L.exp_probs_b.data));
    const std::vector<int32_t> order = by_expert_id(ch);
    mlps.clear();
    for (int32_t i : order) {
        FOLIO_TRY(g, slice_matrix(L.gate_exps, ch.experts[i]));
        FOLIO_TRY(u, slice_matrix(L.up_exps, ch.experts[i]));
        FOLIO_TRY(d, slice_matrix(L.down_exps, ch.experts[i]));
        mlps.push_back({g, u, d, ch.weights[i]});
    }
    if (L.gate_shexp.data != nullptr)
        mlps.push_back({L.gate_shexp, L.up_shexp, L.down_shexp, 1.0f});
    return {};
}

Status moe_ffn(const ModelConfig& c, const DecoderLayer& L, const KernelContext& kctx,
               const float* xn, int64_t T, DecoderScratch& s, float* out) {
    const int64_t E = c.n_embd, X = c.n_expert, K = c.n_expert_used;
    s.router.resize(static_cast<size_t>(T * X));
    FOLIO_CHECK(matmul(kctx, L.gate_inp, xn, E, T, s.router.data(), X));
    const float* bias = static_cast<const float*>(L.exp_probs_b.data);

    // One token (decode): its experts in ascending order, then the shared ones, in one region.
    if (T == 1) {
        std::vector<TokenMlp> mlps;
        FOLIO_CHECK(token_mlps(c, L, s.router.data(), mlps));
        return token_ffn(kctx, mlps, xn, E, s.ffn.token, out);
    }

    // Group tokens by expert. Slot t·K + i holds token t's output of its i-th expert; the
    // slots are later summed per token in ascending expert order, so the result does not
    // depend on which thread ran which expert.
    std::vector<ExpertBatch> batches(static_cast<size_t>(X));
    std::vector<ExpertChoice> choices(static_cast<size_t>(T));
    for (int64_t t = 0; t < T; ++t) {
        choices[t] = route_token(c, s.router.data() + t * X, bias);
        for (size_t i = 0; i < choices[t].experts.size(); ++i) {
            ExpertBatch& b = batches[choices[t].experts[i]];
            b.tokens.push_back(static_cast<int32_t>(t));
            b.slots.push_back(static_cast<int32_t>(t * K + static_cast<int64_t>(i)));
        }
    }
    std::vector<ExpertBatch> work;
    for (int64_t e = 0; e < X; ++e)
        if (!batches[e].tokens.empty()) {
            batches[e].expert = static_cast<int32_t>(e);
            work.push_back(std::move(batches[e]));
        }
    s.expert_rows.resize(static_cast<size_t>(T * K * E));
    float* const rows = s.expert_rows.data();

    // Experts side by side, one thread each, when there are enough to share (a batch routes
    // most experts; decode routes K): one parallel region instead of six per expert, and no
    // thread waits at the barriers of a small expert's matmuls. Largest first, handed out
    // dynamically, so the threads finish together.
    const int threads = std::max(1, kctx.n_threads);
    const bool side_by_side = threads > 1 && static_cast<int64_t>(work.size()) >= 2 * threads;
    if (s.experts.size() < static_cast<size_t>(side_by_side ? threads : 1))
        s.experts.resize(static_cast<size_t>(side_by_side ? threads : 1));
    if (side_by_side) {
        std::stable_sort(work.begin(), work.end(), [](const ExpertBatch& a, const ExpertBatch& b) {
            return a.tokens.size() > b.tokens.size();
        });
        const KernelContext one{1, kctx.path};
        std::vector<Status> status(work.size());
        RegionErrors errors; // an expert's scratch grows with its tokens
#pragma omp parallel num_threads(threads)
        {
#ifdef _OPENMP
            ExpertScratch& w = s.experts[static_cast<size_t>(omp_get_thread_num())];
#else
            ExpertScratch& w = s.experts[0];
#endif
#pragma omp for schedule(dynamic, 1)
            for (int64_t i = 0; i < static_cast<int64_t>(work.size()); ++i)
                errors.run([&] { status[i] = run_expert(L, one, xn, E, work[i], w, rows); });
        }
        errors.rethrow();
        for (const Status& st : status)
            FOLIO_CHECK(st);
    } else {
        for (const ExpertBatch& b : work)
            FOLIO_CHECK(run_expert(L, kctx, xn, E, b, s.experts[0], rows));
    }

    // out[t] = Σ_i w_ti · expert_rows[t·K + i], the experts in ascending order.
    const int sum_threads = T * E >= 65536 ? threads : 1;
    RegionErrors sum_errors; // by_expert_id allocates
    parallel_for(sum_threads, T, [&](int64_t t) {
        sum_errors.run([&] {
            const ExpertChoice& ch = choices[t];
            const std::vector<int32_t> order = by_expert_id(ch);
            float* dst = out + t * E;
            std::fill(dst, dst + E, 0.0f);
            for (int32_t i : order) {
                const float w = ch.weights[i];
                const float* src = rows + (t * K + i) * E;
                for (int64_t j = 0; j < E; ++j)
                    dst[j] += w * src[j];
            }
        });
    });
    sum_errors.rethrow();
    if (L.gate_shexp.data != nullptr) {
        s.tmp.resize(static_cast<size_t>(T * E));
        FOLIO_CHECK(
            dense_ffn(kctx, L.gate_shexp, L.up_shexp, L.down_shexp, xn, T, E, s.ffn, s.tmp.data()));
        for (int64_t i = 0; i < T * E; ++i)
            out[i] += s.tmp[i];
    }
    return {};
}

} // namespace folio
