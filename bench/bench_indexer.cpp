#include "bench_indexer.h"

#include "cache/huge_bytes.h"
#include "kernels/index_score.h"
#include "kernels/kernel_table.h"
#include "kernels/mqa_rows.h"
#include "model/attention/index_key_cache.h"
#include "model/attention/top_k_select.h"
#include "model/mixers/dsa_indexer.h"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>
#include <vector>

namespace folio::bench {

namespace {

template <typename Fn, typename Before> double best_ms(int reps, Fn fn, Before before) {
    double best = 1e30;
    for (int r = 0; r <= reps; ++r) { // rep 0 warms up
        before();
        const auto t0 = std::chrono::steady_clock::now();
        fn();
        const double ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                .count();
        if (r > 0)
            best = std::min(best, ms);
    }
    return best;
}

template <typename Fn> double best_ms(int reps, Fn fn) {
    return best_ms(reps, fn, [] {});
}

// Reads and writes a buffer larger than the CPU caches: in a decode step the index keys were
// evicted by the weights and the other layers since the last step.
void evict_caches(std::vector<uint8_t>& buffer) {
    for (size_t i = 0; i < buffer.size(); i += 64)
        buffer[i] = static_cast<uint8_t>(buffer[i] + 1);
}

// Sparse decode attention over top_k rows of a cache of n rows (kimi-hybrid small shapes: 8
// heads, rows of kv_lora 128 + rope 32 floats), the rows split over the threads and merged as in
// decode: rows scattered over the whole cache (what the indexer selects at depth n) against the
// every-other rows of the first 2·top_k (what it selects at depth 2·top_k), hot and cold.
void bench_sparse_attention(const BenchIndexerOptions& o, std::vector<uint8_t>& evict,
                            std::FILE* out) {
    const int64_t n = std::max<int64_t>(o.keys, 2 * o.top_k), k = o.top_k, H = 8, dqk = 160,
                  dv = 128;
    std::mt19937 rng(9);
    std::normal_distribution<float> nd(0.0f, 1.0f);
    // The engine's KV blocks live in 2 MiB slabs advised for huge pages: the same here.
    HugeBytes cache_bytes;
    cache_bytes.resize(static_cast<size_t>(n * dqk) * sizeof(float));
    float* cache = reinterpret_cast<float*>(cache_bytes.data());
    std::vector<float> q(static_cast<size_t>(H * dqk));
    for (int64_t i = 0; i < n * dqk; ++i)
        cache[i] = nd(rng);
    for (float& v : q)
        v = nd(rng);
    const MqaRowsQuery mq{q.data(), dqk, H, dqk, dv, 1.0f / std::sqrt(float(dqk))};
    const MqaRowsFn fn = mqa_rows_kernel(KernelPath::Auto);
    const int threads = o.threads;
    std::vector<float> m(static_cast<size_t>(threads * H)), l(m.size()),
        acc(static_cast<size_t>(threads * H * dv)), result(static_cast<size_t>(H * dv));
    std::vector<MqaRowsState> states(static_cast<size_t>(threads));
    for (int p = 0; p < threads; ++p)
        states[p] = {m.data() + p * H, l.data() + p * H, acc.data() + p * H * dv};
    std::fprintf(out,
                 "\nsparse decode attention over %lld of %lld rows (%lld heads, dqk %lld, dv "
                 "%lld), %d threads, best of %d\n",
                 static_cast<long long>(k), static_cast<long long>(n), static_cast<long long>(H),
                 static_cast<long long>(dqk), static_cast<long long>(dv), threads, o.reps);
    std::fprintf(out, "| rows | hot (ms) | cold caches (ms) |\n| --- | ---: | ---: |\n");
    std::vector<const float*> rows(static_cast<size_t>(k));
    for (int scattered = 0; scattered < 2; ++scattered) {
        std::vector<int64_t> pos(static_cast<size_t>(k));
        for (int64_t j = 0; j < k; ++j)
            pos[j] = scattered ? j * (n / k) + static_cast<int64_t>(rng() % (n / k)) : 2 * j;
        for (int64_t j = 0; j < k; ++j)
            rows[j] = cache + pos[j] * dqk;
        const int64_t per = (k + threads - 1) / threads;
        auto attend = [&] {
#pragma omp parallel for num_threads(threads) schedule(static)
            for (int p = 0; p < threads; ++p) {
                const int64_t j0 = std::min(k, p * per), j1 = std::min(k, j0 + per);
                mqa_rows_init(mq, states[p]);
                fn(mq, rows.data() + j0, j1 - j0, states[p]);
            }
            mqa_rows_merge(mq, states.data(), threads, result.data(), dv);
        };
        const double hot = best_ms(o.reps, attend);
        const double cold = best_ms(o.reps, attend, [&] { evict_caches(evict); });
        std::fprintf(out, "| %s | %.3f | %.3f |\n",
                     scattered ? "scattered over the cache" : "every other of the first 2·top_k",
                     hot, cold);
    }
}

} // namespace

int run_bench_indexer(const BenchIndexerOptions& o, std::FILE* out) {
    const int64_t n = o.keys, H = o.heads, D = o.dim;
    std::mt19937 rng(7);
    std::normal_distribution<float> nd(0.0f, 1.0f);
    std::vector<float> rows(static_cast<size_t>(n * D)), q(static_cast<size_t>(H * D)),
        w(static_cast<size_t>(H));
    for (float& v : rows)
        v = nd(rng);
    for (float& v : q)
        v = nd(rng);
    for (float& v : w)
        v = nd(rng) * 0.1f;
    const int64_t nt = (n + kIndexTile - 1) / kIndexTile;
    std::vector<float> scores(static_cast<size_t>(nt * kIndexTile));
    std::fprintf(out,
                 "DSA indexer decode work: %lld keys, %lld heads x %lld, top_k %lld, %d "
                 "threads, best of %d\n",
                 static_cast<long long>(n), static_cast<long long>(H), static_cast<long long>(D),
                 static_cast<long long>(o.top_k), o.threads, o.reps);
    std::fprintf(
        out,
        "| keys | kernel | MiB/layer | score 1 thr (ms) | score %d thr (ms) | GB/s | score %d "
        "thr, cold caches (ms) | GB/s | top-k fast (ms) | top-k ref (ms) | %d "
        "layers/token (ms) |\n",
        o.threads, o.threads, o.layers);
    std::fprintf(
        out,
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    std::vector<uint8_t> evict(size_t(256) << 20, 1);
    struct Row {
        KvType type;
        KernelPath path;
    };
    std::vector<Row> rows_to_run = {{KvType::F32, KernelPath::Auto},
                                    {KvType::F16, KernelPath::Auto},
                                    {KvType::Q8_0, KernelPath::Avx2}};
    if (avx512_vnni_kernels_available()) // the same keys through vpdpbusd
        rows_to_run.push_back({KvType::Q8_0, KernelPath::Auto});
    for (const auto& [type, path] : rows_to_run) {
        IndexKeyCache cache(1, static_cast<uint32_t>(D), n, type);
        if (!cache.append(0, rows.data(), n))
            return 1;
        cache.commit(n);
        IndexQueryBuffer buf;
        const IndexQuery iq = make_index_query(cache.format(), q.data(), w.data(), H, D, buf);
        const IndexScoreFn fn = index_score_kernel(path, cache.format());
        const bool vnni =
            path == KernelPath::Auto && type == KvType::Q8_0 && avx512_vnni_kernels_available();
        const char* kernel = vnni ? "avx512 vnni" : avx2_kernels_available() ? "avx2" : "reference";
        const uint8_t* tiles = cache.tiles(0);
        const size_t tb = index_tile_bytes(cache.format(), iq.sdim);
        const double one = best_ms(o.reps, [&] { fn(iq, tiles, nt, scores.data()); });
        const int threads = o.threads;
        const int64_t per = (nt + threads - 1) / threads;
        auto score_parallel = [&] {
#pragma omp parallel for num_threads(threads) schedule(static)
            for (int part = 0; part < threads; ++part) {
                const int64_t t0 = part * per, t1 = std::min(nt, t0 + per);
                if (t0 < t1)
                    fn(iq, tiles + t0 * tb, t1 - t0, scores.data() + t0 * kIndexTile);
            }
        };
        const double par = best_ms(o.reps, score_parallel);
        const double cold = best_ms(o.reps, score_parallel, [&] { evict_caches(evict); });
        std::vector<int32_t> sel(static_cast<size_t>(o.top_k));
        TopKScratch work;
        std::vector<std::pair<float, int32_t>> pairs;
        const double fast =
            best_ms(o.reps, [&] { select_top_k(scores.data(), n, o.top_k, work, sel.data()); });
        // As in decode: each thread collects the candidates of its own range, one merges.
        std::vector<TopKCandidates> parts(static_cast<size_t>(threads));
        const double split = best_ms(o.reps, [&] {
#pragma omp parallel for num_threads(threads) schedule(static)
            for (int part = 0; part < threads; ++part)
                collect_top_k_candidates(scores.data(), std::min(n, part * per * kIndexTile),
                                         std::min(n, (part + 1) * per * kIndexTile), n, o.top_k,
                                         parts[part]);
            select_top_k_of_parts(scores.data(), o.top_k, parts.data(), threads, work.hist,
                                  sel.data());
        });
        const double refer = best_ms(
            o.reps, [&] { select_top_k_reference(scores.data(), n, o.top_k, pairs, sel.data()); });
        const double mib = static_cast<double>(nt) * tb / 1048576.0;
        std::fprintf(out,
                     "| %s | %s | %.1f | %.3f | %.3f | %.1f | %.3f | %.1f | %.3f | %.3f | %.3f | "
                     "%.3f |\n",
                     kv_type_name(type), kernel, mib, one, par, mib * 1.048576 / par, cold,
                     mib * 1.048576 / cold, fast, split, refer, o.layers * (cold + split));
    }
    bench_sparse_attention(o, evict, out);
    return 0;
}

} // namespace folio::bench
