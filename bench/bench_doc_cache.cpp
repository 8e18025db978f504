#include "bench_doc_cache.h"

#include "folio/engine.h"

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <vector>

namespace folio::bench {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

int fail(const std::string& msg) {
    std::fprintf(stderr, "error: %s\n", msg.c_str());
    return 1;
}

struct Answer {
    std::mutex m;
    RequestStats stats;
    std::vector<int32_t> ids;
    std::string error;
};

Request ask(std::vector<Message> messages, int n, Answer& a) {
    Request r;
    r.messages = std::move(messages);
    r.max_tokens = n;
    r.ignore_eos = true;
    r.sampling.temperature = 0;
    r.callbacks.on_token = [&a](std::string_view, int32_t id) {
        std::lock_guard lk(a.m);
        if (id >= 0)
            a.ids.push_back(id);
    };
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

std::string page_text(int i) {
    return "[page " + std::to_string(i + 1) + "] Section " + std::to_string(i / 10 + 1) + "." +
           std::to_string(i % 10 + 1) + ": pump P-" + std::to_string(100 + i % 37) + " delivers " +
           std::to_string(20 + i % 50) + " m3/h at " + std::to_string(3 + i % 9) +
           " bar; inspect the seal every " + std::to_string(200 + i % 7 * 50) +
           " hours and log the vibration (mm/s).\n";
}

// A report's text: numbered pages of technical sentences, as many as the system turn holds
// within `tokens` tokens (counted by the engine), the last one cut where the next character
// would not fit. Later pages have longer numbers, so the first pages' rate only guides the
// growth; each size is counted, never estimated.
Expected<std::string> document_of(const Engine& engine, int64_t tokens) {
    std::string text;
    auto count = [&](size_t chars) -> Expected<int64_t> {
        Request probe;
        probe.messages = {{"system", text.substr(0, chars), {}, {}}};
        probe.generation_prompt = false;
        return engine.count_tokens(probe);
    };
    // Whole pages: grow by nine tenths of the estimated remainder (at least one page) until the
    // text holds more than `tokens`, keeping each page's end.
    std::vector<size_t> ends{0};
    FOLIO_TRY(empty, count(0));
    if (empty >= tokens)
        return make_error(ErrorCode::InvalidArgument, "an empty system turn already takes " +
                                                          std::to_string(empty) +
                                                          " tokens; ask for a larger document");
    int64_t fits = 0, n = empty; // pages that fit (counted); the count of all pages so far
    while (n <= tokens) {
        fits = static_cast<int64_t>(ends.size()) - 1;
        const double rate =
            fits > 0 ? double(n - empty) / double(fits) : double(page_text(0).size());
        const int64_t add =
            std::max<int64_t>(1, static_cast<int64_t>(0.9 * double(tokens - n) / rate));
        for (int64_t k = 0; k < add; ++k) {
            text += page_text(static_cast<int>(ends.size()) - 1);
            ends.push_back(text.size());
        }
        FOLIO_TRY(now, count(text.size()));
        n = now;
    }
    // The largest page count that fits: `fits` pages do, all of them do not.
    int64_t over = static_cast<int64_t>(ends.size()) - 1;
    while (over - fits > 1) {
        const int64_t mid = fits + (over - fits) / 2;
        FOLIO_TRY(m, count(ends[static_cast<size_t>(mid)]));
        (m <= tokens ? fits : over) = mid;
    }
    // Then the longest head of the next page that fits.
    size_t lo = ends[static_cast<size_t>(fits)], hi = ends[static_cast<size_t>(over)];
    while (hi - lo > 1) {
        const size_t mid = lo + (hi - lo) / 2;
        FOLIO_TRY(m, count(mid));
        (m <= tokens ? lo : hi) = mid;
    }
    text.resize(lo);
    return text;
}

} // namespace

// Context kept for the question's turn beyond the document's.
constexpr int64_t kQuestionRoom = 512;

int run_bench_doc_cache(const BenchDocCacheOptions& o, std::FILE* out) {
    std::filesystem::create_directories(o.dir);
    const std::string snapshot = o.dir + "/doc-prefix.kv";
    ModelSpec spec;
    spec.gguf = o.model;
    spec.threads = o.threads;
    // The document turn, the question turn with its generation prompt (tens of tokens), and
    // the answer.
    spec.context = o.doc_tokens + kQuestionRoom + o.n_gen;
    const std::string question =
        "Which pump delivers 42 m3/h, and how often is its seal inspected?";

    // Cold: the document read with the question.
    Answer cold, prefix;
    std::string document;
    SnapshotInfo saved;
    int64_t prefix_tokens = 0;
    double load_s = 0;
    {
        Engine engine;
        const auto t0 = Clock::now();
        auto facts = engine.load_sync(spec);
        if (!facts)
            return fail(facts.error().to_string());
        load_s = seconds_since(t0);
        if (facts->context_limit < spec.context)
            return fail("the model's context (" + std::to_string(facts->context_limit) +
                        ") cannot hold a " + std::to_string(o.doc_tokens) + "-token document, " +
                        std::to_string(kQuestionRoom) + " tokens for the question and " +
                        std::to_string(o.n_gen) + " for the answer: --doc " +
                        std::to_string(
                            std::max<int64_t>(0, facts->context_limit - kQuestionRoom - o.n_gen)) +
                        " at most, or a model with a longer context (make-model --context)");
        auto doc = document_of(engine, o.doc_tokens);
        if (!doc)
            return fail(doc.error().to_string());
        document = std::move(*doc);
        Request whole;
        whole.messages = {{"system", document, {}, {}}, {"user", question, {}, {}}};
        Request alone;
        alone.messages = {{"system", document, {}, {}}};
        alone.generation_prompt = false;
        auto doc_n = engine.count_tokens(alone);
        auto whole_n = engine.count_tokens(whole);
        if (!doc_n || !whole_n)
            return fail((doc_n ? whole_n.error() : doc_n.error()).to_string());
        std::fprintf(out, "model %s (%s), %d threads, loaded in %.2f s\n", o.model.c_str(),
                     facts->name.c_str(), o.threads, load_s);
        std::fprintf(out,
                     "document: %lld tokens (asked for %lld at most); with the question %lld "
                     "tokens + %d to answer, context %lld\n",
                     static_cast<long long>(*doc_n), static_cast<long long>(o.doc_tokens),
                     static_cast<long long>(*whole_n), o.n_gen,
                     static_cast<long long>(facts->context_limit));
        std::fflush(out);
        if (*whole_n + o.n_gen > facts->context_limit)
            return fail("the question does not fit after the document in the context");
        const SessionId s = engine.create_session();
        engine.wait(engine.submit(
            s, ask({{"system", document, {}, {}}, {"user", question, {}, {}}}, o.n_gen, cold)));
        if (!cold.error.empty())
            return fail(cold.error);
        std::fprintf(out, "cold: %lld-token prompt, TTFT %.1f ms, reading %.0f t/s\n",
                     static_cast<long long>(cold.stats.prompt_tokens), cold.stats.ttft_ms,
                     cold.stats.prefill_tps);
        std::fflush(out);
        // The document prefix, read ahead (from the prefix cache here) and saved.
        const SessionId d = engine.create_session();
        Request r = ask({{"system", document, {}, {}}}, 0, prefix);
        r.generation_prompt = false;
        r.interactive = false;
        engine.wait(engine.submit(d, std::move(r)));
        if (!prefix.error.empty())
            return fail(prefix.error);
        prefix_tokens = prefix.stats.prompt_tokens;
        auto s2 = engine.save_snapshot(d, snapshot);
        if (!s2)
            return fail(s2.error().to_string());
        saved = *s2;
    } // the engine is destroyed: a restart

    Answer warm;
    SnapshotInfo loaded;
    double model_load_s = 0;
    {
        Engine engine;
        const auto t0 = Clock::now();
        auto facts = engine.load_sync(spec);
        if (!facts)
            return fail(facts.error().to_string());
        model_load_s = seconds_since(t0);
        const SessionId s = engine.create_session();
        auto l = engine.load_snapshot(s, snapshot);
        if (!l)
            return fail(l.error().to_string());
        loaded = *l;
        engine.wait(engine.submit(
            s, ask({{"system", document, {}, {}}, {"user", question, {}, {}}}, o.n_gen, warm)));
        if (!warm.error.empty())
            return fail(warm.error);
    }
    std::filesystem::remove(snapshot);
    const double restart_ms = loaded.seconds * 1000.0 + warm.stats.ttft_ms;
    std::fprintf(out,
                 "document prefix: %lld tokens ({system}, no generation prompt), snapshot %.1f "
                 "MB saved in %.3f s\n",
                 static_cast<long long>(prefix_tokens), saved.bytes / 1e6, saved.seconds);
    std::fprintf(out,
                 "restart: model loaded in %.2f s; snapshot loaded in %.1f ms; question TTFT "
                 "%.1f ms (reused %lld of %lld tokens); first token %.1f ms after the snapshot "
                 "load began\n",
                 model_load_s, loaded.seconds * 1000.0, warm.stats.ttft_ms,
                 static_cast<long long>(warm.stats.reused_tokens),
                 static_cast<long long>(warm.stats.prompt_tokens), restart_ms);
    const bool same = warm.ids == cold.ids;
    std::fprintf(out, "TTFT cold / after restart: %.1fx (%.1f ms vs %.1f ms); answers %s\n",
                 restart_ms > 0 ? cold.stats.ttft_ms / restart_ms : 0.0, cold.stats.ttft_ms,
                 restart_ms, same ? "identical" : "DIFFER");
    if (!same || warm.stats.reused_tokens < prefix_tokens)
        return fail("the restart did not reuse the document prefix or answered differently");
    return 0;
}

} // namespace folio::bench
