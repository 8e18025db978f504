#include "serve/server_metrics.h"

#include <cstdio>

namespace folio::serve {

namespace {

void metric(std::string& out, const char* name, const char* type, const char* help, double value) {
    char buf[512];
    std::snprintf(buf, sizeof buf, "# HELP %s %s\n# TYPE %s %s\n%s %.17g\n", name, help, name, type,
                  name, value);
    out += buf;
}

} // namespace

std::string prometheus_text(const ServerCounters& c, const EngineStats& e) {
    std::string out;
    metric(out, "folio_requests_total", "counter",
           "Completion requests received (POST /v1/chat/completions and /v1/completions).",
           double(c.requests.load()));
    metric(out, "folio_requests_failed_total", "counter",
           "Completion requests answered with an error (a subset of folio_requests_total).",
           double(c.requests_failed.load()));
    metric(out, "folio_requests_cancelled_total", "counter",
           "Completion requests cancelled because the client disconnected (a subset of "
           "folio_requests_total, apart from the failed ones).",
           double(c.requests_cancelled.load()));
    metric(out, "folio_requests_active", "gauge", "Requests being answered.",
           double(c.active.load()));
    metric(out, "folio_prompt_tokens_total", "counter", "Prompt tokens processed.",
           double(c.prompt_tokens.load()));
    metric(out, "folio_generated_tokens_total", "counter", "Tokens generated.",
           double(c.generated_tokens.load()));
    metric(out, "folio_prefix_hit_tokens_total", "counter",
           "Prompt tokens whose KV came from the prefix cache.", double(e.prefix_hit_tokens));
    metric(out, "folio_decode_tokens_per_second", "gauge", "Decode speed over the last ~30 s.",
           e.window_decode_tps);
    metric(out, "folio_last_decode_tokens_per_second", "gauge",
           "Decode speed of the latest request.", e.last_decode_tps);
    metric(out, "folio_last_prefill_tokens_per_second", "gauge",
           "Prefill speed of the latest request.", e.last_prefill_tps);
    metric(out, "folio_last_ttft_milliseconds", "gauge", "Time to first token, latest request.",
           e.last_ttft_ms);
    metric(out, "folio_sessions", "gauge", "Engine sessions open.", double(e.sessions));
    metric(out, "folio_queued_requests", "gauge", "Requests waiting for the scheduler.",
           double(e.queued_requests));
    metric(out, "folio_kv_bytes", "gauge", "KV cache bytes over all sessions.", double(e.kv_bytes));
    metric(out, "folio_weights_bytes", "gauge", "Model file bytes (mapped or copied into RAM).",
           double(e.weights_bytes));
    metric(out, "folio_weights_in_ram", "gauge",
           "1 when the weights are a copy in RAM with 2 MiB pages, 0 when mapped from the file.",
           e.weights_in_ram ? 1.0 : 0.0);
    out += "# HELP folio_cache_bytes Bytes held per device and category.\n"
           "# TYPE folio_cache_bytes gauge\n";
    char buf[256];
    for (const DeviceStats& d : e.cache.devices) {
        const std::pair<const char*, int64_t> cats[] = {
            {"weights", d.weights}, {"kv", d.kv}, {"state", d.state}, {"scratch", d.scratch}};
        for (const auto& [cat, bytes] : cats) {
            std::snprintf(buf, sizeof buf,
                          "folio_cache_bytes{device=\"%s\",category=\"%s\"} %lld\n", d.name.c_str(),
                          cat, static_cast<long long>(bytes));
            out += buf;
        }
    }
    out += "# HELP folio_cache_blocks KV blocks held per device.\n"
           "# TYPE folio_cache_blocks gauge\n";
    for (const DeviceStats& d : e.cache.devices) {
        std::snprintf(buf, sizeof buf, "folio_cache_blocks{device=\"%s\"} %lld\n", d.name.c_str(),
                      static_cast<long long>(d.blocks));
        out += buf;
    }
    return out;
}

} // namespace folio::serve
