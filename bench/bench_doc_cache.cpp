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

// A report's text: numbered pages of technical sentences, grown until the system turn holds at
// least `tokens` tokens (counted by the engine).
Expected<std::string> document_of(const Engine& engine, int64_t tokens) {
    auto page = [](int i) {
        return "[page " + std::to_string(i + 1) + "] Section " + std::to_string(i / 10 + 1) + "." +
               std::to_string(i % 10 + 1) + ": pump P-" + std::to_string(100 + i % 37) +
               " delivers " + std::to_string(20 + i % 50) + " m3/h at " +
               std::to_string(3 + i % 9) + " bar; inspect the seal every " +
               std::to_string(200 + i % 7 * 50) + " hours and log the vibration (mm/s).\n";
    };
    std::string text;
    int pages = 0;
    auto count = [&]() -> Expected<int64_t> {
        Request probe;
        probe.messages = {{"system", text, {}, {}}};
        probe.generation_prompt = false;
        return engine.count_tokens(probe);
    };
    for (; pages < 10;)
        text += page(pages++);
    FOLIO_TRY(ten, count());
    // Most of the way by the first pages' rate, then a page at a time: the document ends within
    // one page above `tokens`.
    const int64_t per_page = std::max<int64_t>(1, ten / 10);
    for (int64_t k = (tokens - ten) / per_page - 2; k > 0; --k)
        text += page(pages++);
    for (;;) {
        FOLIO_TRY(n, count());
        if (n >= tokens)
            return text;
        text += page(pages++);
    }
}

} // namespace

int run_bench_doc_cache(const BenchDocCacheOptions& o, std::FILE* out) {
    std::filesystem::create_directories(o.dir);
    const std::string snapshot = o.dir + "/doc-prefix.kv";
    ModelSpec spec;
    spec.gguf = o.model;
    spec.threads = o.threads;
    spec.context = o.doc_tokens + 2048;
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
            return fail("the model's context (" + std::to_string(facts->model_context) +
                        ") cannot hold a " + std::to_string(o.doc_tokens) +
                        "-token document; make one with folio-cli make-model --context 65536");
        auto doc = document_of(engine, o.doc_tokens);
        if (!doc)
            return fail(doc.error().to_string());
        document = std::move(*doc);
        std::fprintf(out, "model %s (%s), %d threads, loaded in %.2f s\n", o.model.c_str(),
                     facts->name.c_str(), o.threads, load_s);
        std::fflush(out);
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
