#include "model/mixers/dsa_indexer.h"

#include "kernels/matmul.h"
#include "kernels/rope.h"
#include "model/attention/index_select.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace folio {

namespace {

// LayerNorm over rows of n floats with weight and bias, in place.
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

} // namespace

Expected<int64_t> dsa_index(const ModelConfig& c, const IndexerWeights& ix, IndexKeyCache& keys,
                            const float* q_in, int64_t q_in_dim, const float* xn, int64_t T,
                            int64_t pos0, const KernelContext& kctx, DecoderScratch& s) {
    const int64_t E = c.n_embd, HI = c.indexer_heads, dI = c.indexer_head_dim,
                  top_k = c.indexer_top_k;

    // Index keys of the new tokens: LayerNorm(attn_k·x), NEOX RoPE on the leading rope dims,
    // stored in the cache's type.
    std::vector<int32_t> positions(static_cast<size_t>(T));
    std::iota(positions.begin(), positions.end(), static_cast<int32_t>(pos0));
    std::vector<float> rows(static_cast<size_t>(T * dI));
    FOLIO_CHECK(matmul(kctx, ix.k, xn, E, T, rows.data(), dI));
    layer_norm_rows(rows.data(), dI, T, static_cast<const float*>(ix.k_norm.data),
                    static_cast<const float*>(ix.k_norm_bias.data), c.indexer_eps);
    FOLIO_CHECK(rope(kctx, c.indexer_rope, rows.data(), dI, 1, T, dI, dI, positions.data()));
    FOLIO_CHECK(keys.append(0, rows.data(), T));

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
    const IndexQueries queries{s.iq.data(), s.iw.data(), ns, HI, dI, pos0 + n_dense + 1};
    select_index_keys(keys.format(), keys.tiles(0), queries, top_k, kctx, s.index_select,
                      s.selected.data());
    return n_dense;
}

} // namespace folio
