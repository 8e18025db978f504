#include "model/dsa_indexer.h"

#include "kernels/matmul.h"
#include "kernels/rope.h"

#include <Eigen/Core>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace folio {

namespace {

using RowMajor = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using ConstMap = Eigen::Map<const RowMajor, 0, Eigen::OuterStride<>>;

constexpr int64_t kKeyBlock = 1024; // keys scored per GEMM: bounds the [H_I × block] scratch

// LayerNorm over rows of n floats with weight and bias (MODEL_SPEC §1.2), in place.
void layer_norm_rows(float* x, int64_t n, int64_t rows, const float* w, const float* b, float eps) {
    for (int64_t r = 0; r < rows; ++r) {
        float* v = x + r * n;
        double mean = 0;
        for (int64_t i = 0; i < n; ++i)
            mean += v[i];
        mean /= n;
        double var = 0;
        for (int64_t i = 0; i < n; ++i)
            var += (v[i] - mean) * (v[i] - mean);
        var /= n;
        const float inv = static_cast<float>(1.0 / std::sqrt(var + eps));
        for (int64_t i = 0; i < n; ++i)
            v[i] = static_cast<float>(v[i] - mean) * inv * w[i] + b[i];
    }
}

// out[j] = Σ_h w[h]·ReLU(Q[h]·K[s0 + j]) for keys s0 .. s1 (Q: H_I rows of d_I).
void score_keys(const float* q, const float* w, int64_t HI, int64_t dI, const float* keys,
                int64_t s0, int64_t s1, float* out, std::vector<float>& block) {
    ConstMap Q(q, HI, dI, Eigen::OuterStride<>(dI));
    for (int64_t b0 = s0; b0 < s1; b0 += kKeyBlock) {
        const int64_t nb = std::min(kKeyBlock, s1 - b0);
        block.resize(static_cast<size_t>(HI * nb));
        ConstMap K(keys + b0 * dI, nb, dI, Eigen::OuterStride<>(dI));
        Eigen::Map<RowMajor> M(block.data(), HI, nb);
        M.noalias() = Q * K.transpose();
        for (int64_t j = 0; j < nb; ++j)
            out[b0 - s0 + j] = 0.0f;
        for (int64_t h = 0; h < HI; ++h) {
            const float* m = block.data() + h * nb;
            const float wh = w[h];
            for (int64_t j = 0; j < nb; ++j)
                out[b0 - s0 + j] += wh * std::max(m[j], 0.0f);
        }
    }
}

} // namespace

void select_top_k(const float* scores, int64_t n, int64_t k,
                  std::vector<std::pair<float, int32_t>>& work, int32_t* out) {
    if (k >= n) {
        std::iota(out, out + n, 0);
        return;
    }
    work.resize(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i)
        work[i] = {scores[i], static_cast<int32_t>(i)};
    // A strict total order: higher score first, then lower position.
    auto before = [](const std::pair<float, int32_t>& a, const std::pair<float, int32_t>& b) {
        return a.first > b.first || (a.first == b.first && a.second < b.second);
    };
    std::nth_element(work.begin(), work.begin() + (k - 1), work.end(), before);
    const std::pair<float, int32_t> last = work[static_cast<size_t>(k - 1)];
    int64_t m = 0;
    for (int64_t i = 0; i < n && m < k; ++i) {
        const std::pair<float, int32_t> p{scores[i], static_cast<int32_t>(i)};
        if (!before(last, p)) // p is `last` or comes before it
            out[m++] = static_cast<int32_t>(i);
    }
}

Expected<int64_t> dsa_index(const ModelConfig& c, const IndexerWeights& ix, uint32_t il,
                            MlaCache& keys, const float* q_in, int64_t q_in_dim, const float* xn,
                            int64_t T, int64_t pos0, const KernelContext& kctx, DecoderScratch& s) {
    const int64_t E = c.n_embd, HI = c.indexer_heads, dI = c.indexer_head_dim,
                  top_k = c.indexer_top_k;

    // Index keys of the new tokens: LayerNorm(attn_k·x), NEOX RoPE on the leading rope dims.
    std::vector<int32_t> positions(static_cast<size_t>(T));
    std::iota(positions.begin(), positions.end(), static_cast<int32_t>(pos0));
    FOLIO_TRY(rows, keys.append(il, T));
    FOLIO_CHECK(matmul(kctx, ix.k, xn, E, T, rows, dI));
    layer_norm_rows(rows, dI, T, static_cast<const float*>(ix.k_norm.data),
                    static_cast<const float*>(ix.k_norm_bias.data), c.indexer_eps);
    FOLIO_CHECK(rope(kctx, c.indexer_rope, rows, dI, 1, T, dI, dI, positions.data()));

    const int64_t n_dense = std::clamp<int64_t>(top_k - pos0, 0, T);
    if (n_dense == T)
        return n_dense;
    const int64_t ns = T - n_dense;

    // Queries and head weights of the sparse queries only.
    s.iq.resize(static_cast<size_t>(ns * HI * dI));
    s.iw.resize(static_cast<size_t>(ns * HI));
    FOLIO_CHECK(
        matmul(kctx, ix.q_b, q_in + n_dense * q_in_dim, q_in_dim, ns, s.iq.data(), HI * dI));
    FOLIO_CHECK(rope(kctx, c.indexer_rope, s.iq.data(), dI, HI, ns, dI, HI * dI,
                     positions.data() + n_dense));
    FOLIO_CHECK(matmul(kctx, ix.proj, xn + n_dense * E, E, ns, s.iw.data(), HI));
    const float w_scale = 1.0f / std::sqrt(static_cast<float>(dI * HI));
    for (float& v : s.iw)
        v *= w_scale;

    s.sel_offset.assign(static_cast<size_t>(T + 1), 0);
    for (int64_t t = n_dense; t <= T; ++t)
        s.sel_offset[t] = (t - n_dense) * top_k;
    s.selected.resize(static_cast<size_t>(ns * top_k));
    const float* all_keys = keys.view(il);
    const int threads = std::max(1, kctx.n_threads);
    if (ns >= threads) {
        // Many queries (prefill): one query per task.
#pragma omp parallel num_threads(threads) if (threads > 1)
        {
            omp_set_num_threads(1); // this task's ICV: Eigen's products stay serial in here
            std::vector<float> scores, block;
            std::vector<std::pair<float, int32_t>> work;
#pragma omp for schedule(dynamic, 4)
            for (int64_t i = 0; i < ns; ++i) {
                const int64_t n_vis = pos0 + n_dense + i + 1;
                scores.resize(static_cast<size_t>(n_vis));
                score_keys(s.iq.data() + i * HI * dI, s.iw.data() + i * HI, HI, dI, all_keys, 0,
                           n_vis, scores.data(), block);
                select_top_k(scores.data(), n_vis, top_k, work, s.selected.data() + i * top_k);
            }
        }
    } else {
        // Few queries (decode): split the keys of each query across the threads.
        std::vector<std::pair<float, int32_t>> work;
        for (int64_t i = 0; i < ns; ++i) {
            const int64_t n_vis = pos0 + n_dense + i + 1;
            s.iscore.resize(static_cast<size_t>(n_vis));
            const int64_t per = (n_vis + threads - 1) / threads;
#pragma omp parallel num_threads(threads) if (threads > 1 && n_vis > 4 * kKeyBlock)
            {
                omp_set_num_threads(1);
                std::vector<float> block;
#pragma omp for schedule(static)
                for (int part = 0; part < threads; ++part) {
                    const int64_t s0 = part * per, s1 = std::min(n_vis, s0 + per);
                    if (s0 < s1)
                        score_keys(s.iq.data() + i * HI * dI, s.iw.data() + i * HI, HI, dI,
                                   all_keys, s0, s1, s.iscore.data() + s0, block);
                }
            }
            select_top_k(s.iscore.data(), n_vis, top_k, work, s.selected.data() + i * top_k);
        }
    }
    return n_dense;
}

} // namespace folio
