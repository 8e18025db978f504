// folio-cli serve: an OpenAI-compatible HTTP server on the embedded Engine (app/serve/). Binds to
// loopback unless --host says otherwise; prints "listening on http://HOST:PORT" once it accepts
// connections (with --port 0 the port is chosen by the system); stops on SIGINT / SIGTERM.
#include "cli/args.h"
#include "cli/cache_flags.h"
#include "cli/commands.h"
#include "cli/weights_flag.h"
#include "serve/openai_server.h"

#include "folio/engine.h"

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <pthread.h>
#include <thread>

namespace folio::cli {

int cmd_serve(std::vector<std::string> args) {
    const Command& self = *find_command("serve");
    Args a(std::move(args));
    auto model_path = a.take_value("-m", "--model");
    auto mmproj = a.take_value("--mmproj");
    auto host = a.take_value("--host");
    auto port = a.take_int("--port");
    auto threads = a.take_int("-t", "--threads");
    auto weights = a.take_value("--weights");
    auto ctx = a.take_int("-c", "--ctx-size");
    auto api_key = a.take_value("--api-key");
    auto alias = a.take_value("--alias");
    auto max_body = a.take_value("--max-body");
    auto http_threads = a.take_int("--http-threads");
    CacheFlags cache;
    std::string cache_err;
    if (!take_cache_flags(a, cache, cache_err))
        return usage_error(self, cache_err);
    auto rest = a.positionals();
    if (!a.ok())
        return usage_error(self, a.error());
    if (!rest.empty())
        return usage_error(self, "unexpected argument " + rest[0]);
    if (!model_path)
        return usage_error(self, "-m is required");
    if (port && (*port < 0 || *port > 65535))
        return usage_error(self, "--port must be 0..65535");

    serve::ServeOptions o;
    o.host = host.value_or("127.0.0.1");
    o.port = port ? static_cast<int>(*port) : 8080;
    if (const char* env = std::getenv("FOLIO_API_KEY"); env && !api_key)
        api_key = env;
    o.api_key = api_key.value_or("");
    o.model_name = alias.value_or(std::filesystem::path(*model_path).filename().string());
    if (max_body) {
        int64_t bytes = 0;
        if (!parse_byte_size(*max_body, bytes) || bytes < 1024)
            return usage_error(self, "--max-body must be a size like 32M (at least 1K)");
        o.max_body_bytes = static_cast<size_t>(bytes);
    }
    if (http_threads)
        o.http_threads = static_cast<int>(std::clamp<long long>(*http_threads, 2, 1024));

    // SIGINT / SIGTERM are taken by one thread (sigwait) that stops the server; every other
    // thread, including the engine's, inherits the blocked mask from here.
    sigset_t stop_signals;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGINT);
    sigaddset(&stop_signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

    Engine engine;
    ModelSpec ms;
    if (weights) {
        const std::optional<WeightsMemory> parsed = parse_weights_memory(*weights);
        if (!parsed)
            return usage_error(self, kWeightsFlagError);
        ms.weights = *parsed;
    }
    ms.gguf = *model_path;
    ms.mmproj = mmproj.value_or("");
    ms.threads = threads ? static_cast<int>(std::max<long long>(1, *threads)) : 0;
    ms.context = ctx ? *ctx : 0;
    ms.cache = cache.options;
    auto facts = engine.load_sync(ms);
    if (!facts)
        return fail(facts.error().to_string());

    serve::OpenAiServer server(engine, *facts, o, !ms.mmproj.empty());
    auto bound = server.bind();
    if (!bound)
        return fail(bound.error().to_string());
    std::thread signal_thread([&] {
        int sig = 0;
        sigwait(&stop_signals, &sig);
        server.stop();
    });
    std::printf("listening on http://%s:%d (model %s%s)\n", o.host.c_str(), *bound,
                o.model_name.c_str(), o.api_key.empty() ? "" : ", API key required");
    std::fflush(stdout);
    const bool ok = server.run();
    // run() also returns when binding is lost; wake the signal thread so it can be joined.
    pthread_kill(signal_thread.native_handle(), SIGTERM);
    signal_thread.join();
    return ok ? 0 : fail("the HTTP server stopped unexpectedly");
}

} // namespace folio::cli
