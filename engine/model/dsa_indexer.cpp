#include "model/dsa_indexer.h"

#include "kernels/index_score.h"
#include "kernels/matmul.h"
#include "kernels/rope.h"

#include <omp.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
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

// Keys of scores that compare as unsigned integers in the order of the scores: -0.0 equals
// +0.0, NaN is the lowest of all (key 0), below -inf (key 0x007FFFFF).
inline uint32_t order_key(float x) {
    if (std::isnan(x))
        return 0;
    x += 0.0f;
    uint32_t u;
    std::memcpy(&u, &x, sizeof u);
    return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

// The score of a key (inverse of order_key for keys of non-NaN scores).
inline float key_score(uint32_t k) {
    const uint32_t u = (k & 0x80000000u) ? (k & 0x7FFFFFFFu) : ~k;
    float x;
    std::memcpy(&x, &u, sizeof x);
    return x;
}

// The scores >= thr (every score when all is set), in ascending position order, into w.key /
// w.pos; returns how many. For non-NaN scores, score >= key_score(thr) <=> key >= thr.
int64_t collect_at_least(const float* scores, int64_t n, uint32_t thr, bool all, TopKScratch& w) {
    if (w.key.size() < static_cast<size_t>(n)) {
        w.key.resize(static_cast<size_t>(n));
        w.pos.resize(static_cast<size_t>(n));
    }
    uint32_t* key = w.key.data();
    int32_t* pos = w.pos.data();
    int64_t c = 0, i = 0;
    if (all) {
        for (; i < n; ++i) {
            key[i] = order_key(scores[i]);
            pos[i] = static_cast<int32_t>(i);
        }
        return n;
    }
    const float t = key_score(thr);
    constexpr int kChunk = 16;
    for (; i + kChunk <= n; i += kChunk) {
#if defined(__SSE2__)
        const __m128 tv = _mm_set1_ps(t);
        const __m128 m0 = _mm_cmpge_ps(_mm_loadu_ps(scores + i), tv);
        const __m128 m1 = _mm_cmpge_ps(_mm_loadu_ps(scores + i + 4), tv);
        const __m128 m2 = _mm_cmpge_ps(_mm_loadu_ps(scores + i + 8), tv);
        const __m128 m3 = _mm_cmpge_ps(_mm_loadu_ps(scores + i + 12), tv);
        if (_mm_movemask_ps(_mm_or_ps(_mm_or_ps(m0, m1), _mm_or_ps(m2, m3))) == 0)
            continue;
#else
        int hit = 0;
        for (int j = 0; j < kChunk; ++j)
            hit |= scores[i + j] >= t;
        if (hit == 0)
            continue;
#endif
        for (int j = 0; j < kChunk; ++j) {
            if (scores[i + j] >= t) {
                key[c] = order_key(scores[i + j]);
                pos[c++] = static_cast<int32_t>(i + j);
            }
        }
    }
    for (; i < n; ++i) {
        if (scores[i] >= t) {
            key[c] = order_key(scores[i]);
            pos[c++] = static_cast<int32_t>(i);
        }
    }
    return c;
}

} // namespace

void select_top_k(const float* scores, int64_t n, int64_t k, TopKScratch& w, int32_t* out) {
    if (k >= n) {
        std::iota(out, out + std::max<int64_t>(n, 0), 0);
        return;
    }
    if (k <= 0)
        return;
    // A threshold a little below the k-th largest score, guessed from a strided sample.
    bool all = true;
    uint32_t thr = 0;
    if (n >= 4096 && k * 4 <= n) {
        const int64_t m = std::min<int64_t>(1024, n / 8), stride = n / m;
        w.sample.resize(static_cast<size_t>(m));
        for (int64_t i = 0; i < m; ++i)
            w.sample[i] = order_key(scores[i * stride + stride / 2]);
        int64_t r = (k * m + n - 1) / n;
        r = std::min<int64_t>(m, r + r / 4 + 16);
        std::nth_element(w.sample.begin(), w.sample.begin() + (r - 1), w.sample.end(),
                         std::greater<uint32_t>());
        thr = w.sample[static_cast<size_t>(r - 1)];
        all = thr == 0; // a NaN threshold: take everything
    }
    int64_t c = collect_at_least(scores, n, thr, all, w);
    if (c < k) // the guess was too high: take every score
        c = collect_at_least(scores, n, 0, true, w);
    // Radix select of the k-th largest key T among the c candidates (11 + 11 + 10 bits); r ends
    // as the number of keys equal to T that belong to the top k.
    const uint32_t* key = w.key.data();
    uint32_t prefix = 0, mask = 0;
    int64_t r = k;
    for (const auto& [shift, bits] : {std::pair{21, 11}, std::pair{10, 11}, std::pair{0, 10}}) {
        const uint32_t nbins = 1u << bits, digit = nbins - 1;
        w.hist.assign(nbins, 0);
        uint32_t* hist = w.hist.data();
        for (int64_t i = 0; i < c; ++i)
            if ((key[i] & mask) == prefix)
                ++hist[(key[i] >> shift) & digit];
        uint32_t b = nbins - 1;
        int64_t above = 0;
        while (above + hist[b] < r) {
            above += hist[b];
            --b;
        }
        r -= above;
        prefix |= b << shift;
        mask |= digit << shift;
    }
    const uint32_t T = prefix;
    const int32_t* pos = w.pos.data();
    int64_t m = 0;
    for (int64_t i = 0; i < c && m < k; ++i) {
        if (key[i] > T || (key[i] == T && r-- > 0))
            out[m++] = pos[i];
    }
}

void select_top_k_reference(const float* scores, int64_t n, int64_t k,
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
        // Few queries (decode): split the key tiles of each query across the threads.
        TopKScratch work;
        IndexQueryBuffer qbuf;
        for (int64_t i = 0; i < ns; ++i) {
            const int64_t n_vis = pos0 + n_dense + i + 1;
            const IndexQuery q = make_index_query(format, s.iq.data() + i * HI * dI,
                                                  s.iw.data() + i * HI, HI, dI, qbuf);
            const int64_t nt = n_tiles_of(n_vis);
            s.iscore.resize(static_cast<size_t>(nt * kIndexTile));
            const int64_t per = (nt + threads - 1) / threads;
#pragma omp parallel for num_threads(threads)                                                      \
    schedule(static) if (threads > 1 && n_vis > kParallelKeys)
            for (int part = 0; part < threads; ++part) {
                const int64_t t0 = part * per, t1 = std::min(nt, t0 + per);
                if (t0 < t1)
                    score(q, tiles + t0 * tile_bytes, t1 - t0, s.iscore.data() + t0 * kIndexTile);
            }
            select_top_k(s.iscore.data(), n_vis, top_k, work, s.selected.data() + i * top_k);
        }
    }
    return n_dense;
}

} // namespace folio
