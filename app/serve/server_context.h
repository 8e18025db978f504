#pragma once
// What every HTTP handler of `folio-cli serve` shares: the engine, the served model's facts, the
// options and the counters.

#include "folio/engine.h"
#include "serve/server_metrics.h"

#include <atomic>
#include <cstdint>
#include <string>
#include <utility>

namespace folio::serve {

struct ServeOptions {
    std::string host = "127.0.0.1";    // loopback unless asked otherwise
    int port = 8080;                   // 0: any free port (printed on stdout)
    std::string api_key;               // "": no authentication
    std::string model_name;            // "": the model file's name
    size_t max_body_bytes = 32u << 20; // larger requests get 413
    int http_threads = 32;             // concurrent connections served
};

struct ServerContext {
    ServerContext(Engine& e, ModelFacts f, ServeOptions o, bool v)
        : engine(e), facts(std::move(f)), options(std::move(o)), vision(v) {}
    Engine& engine;
    ModelFacts facts;
    ServeOptions options;
    bool vision = false;
    ServerCounters counters;
    std::atomic<int64_t> next_id{1};
};

} // namespace folio::serve
