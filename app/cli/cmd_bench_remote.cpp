// folio-cli bench-remote: a bounded load test of an OpenAI-compatible server (folio-cli serve,
// vLLM, SGLang) through RemoteBackend: C clients each send R short streamed chat requests one
// after the other; prints failures, throughput and latency / TTFT percentiles.
#include "cli/args.h"
#include "cli/commands.h"

#include "folio/remote_backend.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>

namespace folio::cli {

namespace {

double percentile(std::vector<double> v, double p) {
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, static_cast<size_t>(p / 100.0 * double(v.size())))];
}

} // namespace

int cmd_bench_remote(std::vector<std::string> args) {
    const Command& self = *find_command("bench-remote");
    Args a(std::move(args));
    auto url = a.take_value("--remote");
    auto api_key = a.take_value("--api-key");
    auto model = a.take_value("--model");
    auto clients = a.take_int("--clients");
    auto requests = a.take_int("--requests");
    auto n = a.take_int("-n", "--n-predict");
    auto prompt = a.take_value("-p", "--prompt");
    auto rest = a.positionals();
    if (!a.ok())
        return usage_error(self, a.error());
    if (!rest.empty())
        return usage_error(self, "unexpected argument " + rest[0]);
    if (!url || !model)
        return usage_error(self, "--remote URL and --model NAME are required");
    RemoteOptions o;
    o.base_url = *url;
    if (!api_key)
        if (const char* env = std::getenv("FOLIO_API_KEY"))
            api_key = env;
    o.api_key = api_key.value_or("");
    o.model = *model;
    RemoteBackend backend(o);
    if (auto v = backend.valid(); !v)
        return usage_error(self, v.error().message);
    const int C = static_cast<int>(std::clamp<long long>(clients.value_or(8), 1, 256));
    const int R = static_cast<int>(std::clamp<long long>(requests.value_or(20), 1, 100000));
    const int N = static_cast<int>(std::clamp<long long>(n.value_or(8), 1, 100000));

    std::mutex mu;
    std::vector<double> latency, ttft;
    std::atomic<int> failed{0};
    std::atomic<int64_t> tokens{0};
    std::string first_error;
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<std::thread> threads;
    for (int c = 0; c < C; ++c) {
        threads.emplace_back([&, c] {
            for (int i = 0; i < R; ++i) {
                Request r;
                r.messages = {{"user",
                               prompt.value_or("Question") + " " + std::to_string(c) + "." +
                                   std::to_string(i),
                               {},
                               {}}};
                r.max_tokens = N;
                r.sampling.temperature = 0;
                RequestStats st;
                std::string err;
                r.callbacks.on_done = [&](const RequestStats& s) { st = s; };
                r.callbacks.on_error = [&](const Error& e) { err = e.to_string(); };
                const auto s = std::chrono::steady_clock::now();
                backend.wait(backend.submit(std::move(r)));
                const double ms =
                    std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - s)
                        .count();
                std::lock_guard lk(mu);
                if (!err.empty() || st.stop_reason == "error") {
                    ++failed;
                    if (first_error.empty())
                        first_error = err;
                    continue;
                }
                tokens += st.generated_tokens;
                latency.push_back(ms);
                ttft.push_back(st.ttft_ms);
            }
        });
    }
    for (auto& t : threads)
        t.join();
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("bench-remote: %d clients x %d requests, %d tokens each: %d failed; %.2f s, %.1f "
                "req/s, %.1f generated t/s\n",
                C, R, N, failed.load(), wall, C * R / wall, tokens.load() / wall);
    std::printf("latency ms: p50 %.1f p90 %.1f p99 %.1f   TTFT ms: p50 %.1f p90 %.1f p99 %.1f\n",
                percentile(latency, 50), percentile(latency, 90), percentile(latency, 99),
                percentile(ttft, 50), percentile(ttft, 90), percentile(ttft, 99));
    if (failed > 0)
        return fail("first failure: " + first_error);
    return 0;
}

} // namespace folio::cli
