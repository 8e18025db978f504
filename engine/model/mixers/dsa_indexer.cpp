#include "model/mixers/dsa_indexer.h"

#include "kernels/index_score.h"
#include "kernels/matmul.h"
#include "kernels/rope.h"
#include "model/top_k_select.h"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace folio {

namespace {

constexpr int64_t kParallelKeys = 4096; // decode: fewer keys are scored on one thread

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

} // namespace

Expected<int64_t> dsa_index(const ModelConfig& c, const IndexerWeights& ix, uint32_t il,
                            IndexKeyCache& keys, const float* q_in, int64_t q_in_dim,
                            const float* xn, int64_t T, int64_t pos0, const KernelContext& kctx,
                            DecoderScratch& s) {
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
    FOLIO_CHECK(keys.append(il, rows.data(), T));

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
    const IndexKeyFormat format = keys.format();
    const IndexScoreFn score = index_score_kernel(kctx.path, format);
    const uint8_t* tiles = keys.tiles(il);
    const size_t tile_bytes = index_tile_bytes(format, index_stored_dim(format, dI));
    const int threads = std::max(1, kctx.n_threads);
    auto n_tiles_of = [](int64_t n) { return (n + kIndexTile - 1) / kIndexTile; };
    if (ns >= threads) {
        // Many queries (prefill): one query per task.
#pragma omp parallel num_threads(threads) if (threads > 1)
        {
            std::vector<float> scores;
            IndexQueryBuffer qbuf;
            TopKScratch work;
#pragma omp for schedule(dynamic, 4)
            for (int64_t i = 0; i < ns; ++i) {
                const int64_t n_vis = pos0 + n_dense + i + 1;
                const IndexQuery q = make_index_query(format, s.iq.data() + i * HI * dI,
                                                      s.iw.data() + i * HI, HI, dI, qbuf);
                const int64_t nt = n_tiles_of(n_vis);
                scores.resize(static_cast<size_t>(nt * kIndexTile));
                score(q, tiles, nt, scores.data());
                select_top_k(scores.data(), n_vis, top_k, work, s.selected.data() + i * top_k);
            }
        }
    } else {
        // Few queries (decode): split the key tiles of each query across the threads; each
        // thread also collects its range's top-k candidates while its scores are in its cache.
        TopKScratch& work = s.topk;
        s.topk_parts.resize(static_cast<size_t>(threads));
        IndexQueryBuffer qbuf;
        for (int64_t i = 0; i < ns; ++i) {
            const int64_t n_vis = pos0 + n_dense + i + 1;
            const IndexQuery q = make_index_query(format, s.iq.data() + i * HI * dI,
                                                  s.iw.data() + i * HI, HI, dI, qbuf);
            const int64_t nt = n_tiles_of(n_vis);
            s.iscore.resize(static_cast<size_t>(nt * kIndexTile));
            int32_t* out = s.selected.data() + i * top_k;
            if (threads == 1 || n_vis <= kParallelKeys) {
                score(q, tiles, nt, s.iscore.data());
                select_top_k(s.iscore.data(), n_vis, top_k, work, out);
                continue;
            }
            const int64_t per = (nt + threads - 1) / threads;
#pragma omp parallel for num_threads(threads) schedule(static)
            for (int part = 0; part < threads; ++part) {
                const int64_t t0 = std::min(nt, part * per), t1 = std::min(nt, t0 + per);
                if (t0 < t1)
                    score(q, tiles + t0 * tile_bytes, t1 - t0, s.iscore.data() + t0 * kIndexTile);
                collect_top_k_candidates(s.iscore.data(), std::min(n_vis, t0 * kIndexTile),
                                         std::min(n_vis, t1 * kIndexTile), n_vis, top_k,
                                         s.topk_parts[part]);
            }
            select_top_k_of_parts(s.iscore.data(), top_k, s.topk_parts.data(), threads, work.hist,
                                  out);
        }
    }
    return n_dense;
}

} // namespace folio
