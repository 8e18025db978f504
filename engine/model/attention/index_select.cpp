#include "model/attention/index_select.h"

#include "core/region_errors.h"

#include <omp.h>

#include <algorithm>

namespace folio {

namespace {

constexpr int64_t kParallelKeys = 4096; // decode: fewer keys are scored on one thread
// Prefill: kQueryBlock queries are scored together on each chunk of kKeyChunkTiles tiles of 8
// keys, sized to stay in a core's L2 (64 tiles: 128 KiB of f32 keys of 64 values, 34 KiB of q8_0).
// At 128K keys a layer's f32 keys are 32 MiB: read once per query they bound prefill by memory.
constexpr int64_t kQueryBlock = 8;
constexpr int64_t kKeyChunkTiles = 64;

int64_t tiles_of(int64_t keys) {
    return (keys + kIndexTile - 1) / kIndexTile;
}

void select_prefill(IndexKeyFormat format, IndexScoreFn score, const uint8_t* tiles,
                    const IndexQueries& q, int64_t top_k, int threads, int32_t* selected) {
    const size_t tile_bytes = index_tile_bytes(format, index_stored_dim(format, q.dim));
    const int64_t n_blocks = (q.count + kQueryBlock - 1) / kQueryBlock;
    RegionErrors errors; // the scores grow with the keys
#pragma omp parallel num_threads(threads) if (threads > 1)
    {
        std::vector<float> scores;
        IndexQueryBuffer qbuf[kQueryBlock];
        IndexQuery query[kQueryBlock];
        int64_t n_tiles[kQueryBlock];
        TopKScratch work;
#pragma omp for schedule(dynamic, 1)
        for (int64_t blk = 0; blk < n_blocks; ++blk)
            errors.run([&] {
                const int64_t i0 = blk * kQueryBlock, nq = std::min(kQueryBlock, q.count - i0);
                // The block's last query sees the most keys.
                const int64_t stride = tiles_of(q.first_visible + i0 + nq - 1) * kIndexTile;
                scores.resize(static_cast<size_t>(nq * stride));
                for (int64_t j = 0; j < nq; ++j) {
                    const int64_t i = i0 + j;
                    query[j] = make_index_query(format, q.q + i * q.heads * q.dim,
                                                q.w + i * q.heads, q.heads, q.dim, qbuf[j]);
                    n_tiles[j] = tiles_of(q.first_visible + i);
                }
                for (int64_t c0 = 0; c0 < n_tiles[nq - 1]; c0 += kKeyChunkTiles)
                    for (int64_t j = 0; j < nq; ++j) {
                        const int64_t c1 = std::min(n_tiles[j], c0 + kKeyChunkTiles);
                        if (c0 < c1)
                            score(query[j], tiles + c0 * tile_bytes, c1 - c0,
                                  scores.data() + j * stride + c0 * kIndexTile);
                    }
                for (int64_t j = 0; j < nq; ++j)
                    select_top_k(scores.data() + j * stride, q.first_visible + i0 + j, top_k, work,
                                 selected + (i0 + j) * top_k);
            });
    }
    errors.rethrow();
}

void select_decode(IndexKeyFormat format, IndexScoreFn score, const uint8_t* tiles,
                   const IndexQueries& q, int64_t top_k, int threads, IndexSelectScratch& s,
                   int32_t* selected) {
    const size_t tile_bytes = index_tile_bytes(format, index_stored_dim(format, q.dim));
    s.parts.resize(static_cast<size_t>(threads));
    IndexQueryBuffer qbuf;
    for (int64_t i = 0; i < q.count; ++i) {
        const int64_t n_vis = q.first_visible + i;
        const IndexQuery iq = make_index_query(format, q.q + i * q.heads * q.dim, q.w + i * q.heads,
                                               q.heads, q.dim, qbuf);
        const int64_t nt = tiles_of(n_vis);
        s.scores.resize(static_cast<size_t>(nt * kIndexTile));
        int32_t* out = selected + i * top_k;
        if (threads == 1 || n_vis <= kParallelKeys) {
            score(iq, tiles, nt, s.scores.data());
            select_top_k(s.scores.data(), n_vis, top_k, s.topk, out);
            continue;
        }
        const int64_t per = (nt + threads - 1) / threads;
        RegionErrors errors; // a part's candidates grow
#pragma omp parallel for num_threads(threads) schedule(static)
        for (int part = 0; part < threads; ++part)
            errors.run([&] {
                const int64_t t0 = std::min(nt, part * per), t1 = std::min(nt, t0 + per);
                if (t0 < t1)
                    score(iq, tiles + t0 * tile_bytes, t1 - t0, s.scores.data() + t0 * kIndexTile);
                collect_top_k_candidates(s.scores.data(), std::min(n_vis, t0 * kIndexTile),
                                         std::min(n_vis, t1 * kIndexTile), n_vis, top_k,
                                         s.parts[part]);
            });
        errors.rethrow();
        select_top_k_of_parts(s.scores.data(), top_k, s.parts.data(), threads, s.topk.hist, out);
    }
}

} // namespace

void select_index_keys(IndexKeyFormat format, const uint8_t* tiles, const IndexQueries& q,
                       int64_t top_k, const KernelContext& kctx, IndexSelectScratch& scratch,
                       int32_t* selected) {
    const IndexScoreFn score = index_score_kernel(kctx.path, format);
    const int threads = std::max(1, kctx.n_threads);
    if (q.count >= threads)
        select_prefill(format, score, tiles, q, top_k, threads, selected);
    else
        select_decode(format, score, tiles, q, top_k, threads, scratch, selected);
}

} // namespace folio
