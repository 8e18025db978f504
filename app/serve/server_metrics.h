#pragma once
// Counters of the HTTP server and the Prometheus text of GET /metrics (server counters plus the
// engine's statistics: tokens per second, TTFT, prefix hits, and cache bytes per device and
// category from EngineStats::cache.devices).

#include "folio/engine.h"

#include <atomic>
#include <cstdint>
#include <string>

namespace folio::serve {

// requests_failed and requests_cancelled are disjoint subsets of requests, so
// failed + cancelled <= requests at every moment (each is counted after its request was).
struct ServerCounters {
    // Every POST to /v1/chat/completions or /v1/completions, counted once as it arrives (before
    // the key, the body or the JSON are looked at). Other routes and other methods are not.
    std::atomic<int64_t> requests{0};
    // Of those, the ones answered 4xx/5xx (key, missing or unreadable or too large body, bad
    // JSON or field, engine error before the answer) or whose stream ended with an error event.
    std::atomic<int64_t> requests_failed{0};
    // Of those, streams whose client went away before the answer ended (not failed).
    std::atomic<int64_t> requests_cancelled{0};
    std::atomic<int64_t> active{0}; // being answered now (past parsing, engine request submitted)
    std::atomic<int64_t> prompt_tokens{0};
    std::atomic<int64_t> generated_tokens{0};
};

std::string prometheus_text(const ServerCounters& c, const EngineStats& e);

} // namespace folio::serve
