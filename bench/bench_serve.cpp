#include "bench_serve.h"

#include "folio/engine.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <numeric>
#include <random>
#include <thread>
#include <vector>

namespace folio::bench {

namespace {

using Clock = std::chrono::steady_clock;

struct Timing {
    std::mutex m;
    std::vector<double> gaps_ms; // between consecutive tokens
    Clock::time_point last{};
    bool started = false;
    std::atomic<bool> background_running{false};
    std::vector<double> gaps_during_background;
    RequestStats stats;
};

Request timed_request(std::vector<int32_t> prompt, int n, Timing& t) {
    Request r;
    r.prompt_tokens = std::move(prompt);
    r.max_tokens = n;
    r.ignore_eos = true;
    r.sampling.temperature = 0;
    r.callbacks.on_token = [&t](std::string_view, int32_t id) {
        if (id < 0)
            return;
        std::lock_guard lk(t.m);
        const auto now = Clock::now();
        if (t.started) {
            const double gap = std::chrono::duration<double, std::milli>(now - t.last).count();
            t.gaps_ms.push_back(gap);
            if (t.background_running)
                t.gaps_during_background.push_back(gap);
        }
        t.started = true;
        t.last = now;
    };
    r.callbacks.on_done = [&t](const RequestStats& s) {
        std::lock_guard lk(t.m);
        t.stats = s;
    };
    return r;
}

double median(std::vector<double> v) {
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

} // namespace

int run_bench_serve(const BenchServeOptions& o, std::FILE* out) {
    Engine engine;
    ModelSpec spec;
    spec.gguf = o.model;
    spec.threads = o.threads;
    spec.context = o.background_prefill + 256;
    auto facts = engine.load_sync(spec);
    if (!facts) {
        std::fprintf(stderr, "error: %s\n", facts.error().to_string().c_str());
        return 1;
    }
    if (facts->context_limit < o.background_prefill + 64) {
        std::fprintf(
            stderr,
            "error: the model's context (%lld) is too small for a %lld-token background prefill\n",
            static_cast<long long>(facts->context_limit),
            static_cast<long long>(o.background_prefill));
        return 1;
    }
    std::mt19937 rng(7);
    std::uniform_int_distribution<int32_t> tok(0, static_cast<int32_t>(facts->vocab_size) - 1);
    auto random_tokens = [&](int64_t n) {
        std::vector<int32_t> v(static_cast<size_t>(n));
        for (auto& t : v)
            t = tok(rng);
        return v;
    };
    std::fprintf(out, "model: %s (%s), %d threads\n\n", facts->name.c_str(),
                 facts->architecture.c_str(), o.threads);

    // 1. Interactive decode latency, idle.
    const auto question = random_tokens(64);
    const SessionId chat = engine.create_session(), report = engine.create_session();
    Timing idle;
    engine.wait(engine.submit(chat, timed_request(question, o.interactive_tokens, idle)));
    const double idle_ms = median(idle.gaps_ms);

    // 2. The same while the other session prefills a long document in the background.
    engine.reset_session(chat);
    Timing busy, bg;
    Request background = timed_request(random_tokens(o.background_prefill), 1, bg);
    background.interactive = false;
    busy.background_running = true;
    background.callbacks.on_done = [&busy, &bg](const RequestStats& s) {
        busy.background_running = false;
        std::lock_guard lk(bg.m);
        bg.stats = s;
    };
    const auto t0 = Clock::now();
    const RequestId bg_id = engine.submit(report, std::move(background));
    std::this_thread::sleep_for(std::chrono::milliseconds(200)); // the prefill is under way
    for (int round = 0; round < 3 && busy.background_running; ++round) {
        // Ask a few questions while the background prefill runs, as a user would.
        engine.reset_session(chat);
        busy.started = false;
        engine.wait(engine.submit(chat, timed_request(question, o.interactive_tokens, busy)));
    }
    const double shared_seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    engine.wait(bg_id); // then the document finishes alone
    const double bg_seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    const double busy_ms = median(busy.gaps_during_background);
    std::fprintf(out, "interactive decode latency (median per token):\n");
    std::fprintf(out, "  idle:                                   %8.2f ms\n", idle_ms);
    std::fprintf(
        out,
        "  during a %lld-token background prefill: %8.2f ms  (%.2fx idle, %zu tokens measured)\n",
        static_cast<long long>(o.background_prefill), busy_ms,
        idle_ms > 0 ? busy_ms / idle_ms : 0.0, busy.gaps_during_background.size());
    std::fprintf(
        out,
        "  background prefill: %.1f s in all (%.1f t/s), of which %.1f s shared with the chat\n\n",
        bg_seconds, bg.stats.prefill_tps, shared_seconds);

    // 3. Prompt lookup on a quoting task: the context holds a passage twice, the model goes on.
    auto passage = random_tokens(200);
    std::vector<int32_t> doc = passage;
    doc.insert(doc.end(), passage.begin(), passage.begin() + 100);
    double tps[2] = {0, 0};
    RequestStats spec_stats;
    std::vector<int32_t> outputs[2];
    for (int mode = 0; mode < 2; ++mode) {
        const SessionId s = engine.create_session();
        Timing t;
        Request r = timed_request(doc, o.lookup_tokens, t);
        r.speculation = mode ? SpeculationMode::PromptLookup : SpeculationMode::Off;
        auto collect = r.callbacks.on_token;
        r.callbacks.on_token = [&, collect, mode](std::string_view text, int32_t id) {
            collect(text, id);
            if (id >= 0)
                outputs[mode].push_back(id);
        };
        engine.wait(engine.submit(s, std::move(r)));
        tps[mode] = t.stats.decode_tps;
        if (mode)
            spec_stats = t.stats;
        engine.close_session(s);
    }
    std::fprintf(out, "prompt lookup on a quoting task (%d greedy tokens):\n", o.lookup_tokens);
    std::fprintf(
        out,
        "  off: %.2f t/s   lookup: %.2f t/s   speed-up %.2fx   acceptance %.2f (%lld of %lld "
        "drafts)   "
        "same output: %s\n",
        tps[0], tps[1], tps[0] > 0 ? tps[1] / tps[0] : 0.0,
        spec_stats.spec_drafted ? double(spec_stats.spec_accepted) / spec_stats.spec_drafted : 0.0,
        static_cast<long long>(spec_stats.spec_accepted),
        static_cast<long long>(spec_stats.spec_drafted), outputs[0] == outputs[1] ? "yes" : "NO");
    return outputs[0] == outputs[1] ? 0 : 1;
}

} // namespace folio::bench
