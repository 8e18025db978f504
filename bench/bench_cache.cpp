#include "bench_cache.h"

#include "cache/block_pool.h"
#include "folio/engine.h"
#include "folio/model_info.h"
#include "model/decoder/decoder_model.h"
#include "runtime/sampler.h"

#include <sys/resource.h>

#include <chrono>
#include <filesystem>
#include <mutex>
#include <random>
#include <vector>

namespace folio::bench {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

std::vector<int32_t> random_tokens(int64_t n, uint32_t vocab, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int32_t> tok(10, static_cast<int32_t>(vocab) - 1);
    std::vector<int32_t> v(static_cast<size_t>(n));
    for (auto& t : v)
        t = tok(rng);
    return v;
}

struct Answer {
    std::mutex m;
    RequestStats stats;
    std::string error;
};

Request request(std::vector<int32_t> prompt, int n, Answer& a) {
    Request r;
    r.prompt_tokens = std::move(prompt);
    r.max_tokens = n;
    r.ignore_eos = true;
    r.sampling.temperature = 0;
    r.callbacks.on_done = [&a](const RequestStats& s) {
        std::lock_guard lk(a.m);
        a.stats = s;
    };
    r.callbacks.on_error = [&a](const Error& e) {
        std::lock_guard lk(a.m);
        a.error = e.to_string();
    };
    return r;
}

double peak_rss_mib() {
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss / 1024.0;
}

int fail(const std::string& msg) {
    std::fprintf(stderr, "error: %s\n", msg.c_str());
    return 1;
}

// TTFT of a 20-token question after the document: first from scratch, then in a new session
// that finds the document in the prefix cache; plus the snapshot rates of the document.
int ttft_and_snapshots(const BenchCacheOptions& o, uint32_t vocab, const std::string& dir,
                       std::FILE* out) {
    ModelSpec spec;
    spec.gguf = o.model;
    spec.threads = o.threads;
    spec.context = o.doc_tokens + o.question_tokens + 64;
    Engine engine;
    auto facts = engine.load_sync(spec);
    if (!facts)
        return fail(facts.error().to_string());
    const std::vector<int32_t> doc = random_tokens(o.doc_tokens, vocab, 7);
    auto with_question = [&](uint32_t seed) {
        std::vector<int32_t> p = doc;
        const std::vector<int32_t> q = random_tokens(o.question_tokens, vocab, seed);
        p.insert(p.end(), q.begin(), q.end());
        return p;
    };
    Answer first, second;
    const SessionId s1 = engine.create_session();
    engine.wait(engine.submit(s1, request(with_question(1), 1, first)));
    if (!first.error.empty())
        return fail(first.error);
    const SessionId s2 = engine.create_session();
    engine.wait(engine.submit(s2, request(with_question(2), 1, second)));
    if (!second.error.empty())
        return fail(second.error);
    const double ratio = second.stats.ttft_ms > 0 ? first.stats.ttft_ms / second.stats.ttft_ms : 0;
    std::fprintf(out,
                 "ttft, %lld-token document + %d-token question: without prefix cache %.1f ms, "
                 "with it %.1f ms (reused %lld tokens): %.1fx\n",
                 static_cast<long long>(o.doc_tokens), o.question_tokens, first.stats.ttft_ms,
                 second.stats.ttft_ms, static_cast<long long>(second.stats.reused_tokens), ratio);
    std::fflush(out);
    if (!o.run_snapshot)
        return 0;
    const std::string path = dir + "/bench-doc.kv";
    auto saved = engine.save_snapshot(s1, path);
    if (!saved)
        return fail(saved.error().to_string());
    Engine other;
    if (auto f = other.load_sync(spec); !f)
        return fail(f.error().to_string());
    auto loaded = other.load_snapshot(other.create_session(), path);
    if (!loaded)
        return fail(loaded.error().to_string());
    std::fprintf(out,
                 "snapshot of %lld tokens, %.1f MB: save %.0f MB/s (%.3f s, fsync included), "
                 "load %.0f MB/s (%.3f s, checksums included)\n",
                 static_cast<long long>(saved->tokens), saved->bytes / 1e6,
                 saved->bytes / 1e6 / saved->seconds, saved->seconds,
                 loaded->bytes / 1e6 / loaded->seconds, loaded->seconds);
    std::filesystem::remove(path);
    return 0;
}

// Decode t/s at the document's depth, unlimited RAM vs budget = fraction of the KV size.
int decode_under_budget(const BenchCacheOptions& o, const DecoderModel& m, const std::string& dir,
                        std::FILE* out) {
    CacheOptions co;
    co.offload_dir = dir;
    auto pool = std::make_shared<BlockPool>(pool_config_for(m.config, co));
    if (!pool->warning().empty())
        return fail(pool->warning());
    DecoderState state = make_decoder_state(m.config, o.doc_tokens + 2 * o.n_gen + 1, pool);
    DecoderScratch scratch;
    EvalOptions opt;
    opt.kernels.n_threads = o.threads;
    std::vector<float> logits;
    const std::vector<int32_t> doc = random_tokens(o.doc_tokens, m.config.n_vocab, 11);
    const auto t0 = Clock::now();
    for (int64_t i = 0; i < o.doc_tokens; i += 512) {
        const int64_t n = std::min<int64_t>(512, o.doc_tokens - i);
        if (Status s = decoder_eval(m, state, scratch, doc.data() + i, n, opt, logits); !s)
            return fail(s.error().to_string());
    }
    const double prefill_s = seconds_since(t0);
    const int64_t kv_bytes =
        static_cast<int64_t>(state.kv().ram_bytes() + state.kv().disk_bytes()) +
        static_cast<int64_t>(state.fixed_bytes() - state.recurrent_bytes());
    auto decode = [&](double& tps) -> Status {
        int32_t next = argmax(logits);
        const auto t = Clock::now();
        for (int i = 0; i < o.n_gen; ++i) {
            FOLIO_CHECK(decoder_eval(m, state, scratch, &next, 1, opt, logits));
            next = argmax(logits);
        }
        tps = o.n_gen / seconds_since(t);
        return {};
    };
    double unlimited = 0, budgeted = 0;
    if (Status s = decode(unlimited); !s)
        return fail(s.error().to_string());
    const int64_t budget = static_cast<int64_t>(kv_bytes * o.budget_fraction);
    pool->set_ram_budget(budget);
    pool->enforce_budget();
    if (Status s = decode(budgeted); !s)
        return fail(s.error().to_string());
    CacheStats st;
    pool->fill_stats(st);
    std::fprintf(out,
                 "decode at depth %lld (prefill %.0f t/s): KV %s; unlimited RAM %.2f t/s; RAM "
                 "budget %s (%.0f%%) with %lld of %lld blocks on disk %.2f t/s: %.2fx\n",
                 static_cast<long long>(o.doc_tokens), o.doc_tokens / prefill_s,
                 format_bytes(static_cast<uint64_t>(kv_bytes)).c_str(), unlimited,
                 format_bytes(static_cast<uint64_t>(budget)).c_str(), o.budget_fraction * 100,
                 static_cast<long long>(st.blocks_disk),
                 static_cast<long long>(st.blocks_disk + st.blocks_ram), budgeted,
                 unlimited > 0 ? budgeted / unlimited : 0.0);
    std::fprintf(out, "  moved to disk %s, read from disk %s, over budget by up to %s\n",
                 format_bytes(static_cast<uint64_t>(st.bytes_to_disk)).c_str(),
                 format_bytes(static_cast<uint64_t>(st.bytes_from_disk)).c_str(),
                 format_bytes(static_cast<uint64_t>(st.over_budget_bytes)).c_str());
    return 0;
}

} // namespace

int run_bench_cache(const BenchCacheOptions& o, std::FILE* out) {
    auto loaded = load_decoder(o.model);
    if (!loaded)
        return fail(loaded.error().to_string());
    const DecoderModel& m = **loaded;
    const std::string dir =
        o.offload_dir.empty()
            ? (std::filesystem::temp_directory_path() / "folio-bench-cache").string()
            : o.offload_dir;
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    std::fprintf(out, "model %s (%s), %d threads\n", o.model.c_str(), m.config.arch.c_str(),
                 o.threads);
    if (o.run_ttft)
        if (int rc = ttft_and_snapshots(o, m.config.n_vocab, dir, out))
            return rc;
    if (o.run_decode)
        if (int rc = decode_under_budget(o, m, dir, out))
            return rc;
    std::fprintf(out, "peak RSS %.1f MiB\n", peak_rss_mib());
    return 0;
}

} // namespace folio::bench
