#pragma once
// Counters of the HTTP server and the Prometheus text of GET /metrics (server counters plus the
// engine's statistics: tokens per second, TTFT, prefix hits, and cache bytes per device and
// category from EngineStats::cache.devices).

#include "folio/engine.h"

#include <atomic>
#include <cstdint>
#include <string>

namespace folio::serve {

struct ServerCounters {
    std::atomic<int64_t> requests{0};           // completions requests accepted
    std::atomic<int64_t> requests_failed{0};    // answered 4xx/5xx or ended by an engine error
    std::atomic<int64_t> requests_cancelled{0}; // the client went away
    std::atomic<int64_t> active{0};
    std::atomic<int64_t> prompt_tokens{0};
    std::atomic<int64_t> generated_tokens{0};
};

std::string prometheus_text(const ServerCounters& c, const EngineStats& e);

} // namespace folio::serve
