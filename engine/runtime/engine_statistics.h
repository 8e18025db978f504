#pragma once
// The engine's statistics (folio/engine.h EngineStats): what the scheduler and finished requests
// report, the decode rate over the last 30 s, speculation's acceptance, the cache's tiers and
// transfer rates. Thread-safe: the worker writes, any thread reads a copy (Engine::stats()).

#include "folio/engine.h"
#include "runtime/decoder_adapter.h"

#include <chrono>
#include <cstdint>
#include <deque>
#include <mutex>
#include <span>
#include <utility>

namespace folio {

class SessionCache;

// One session as the statistics see it.
struct SessionUsage {
    SessionId id = 0;
    const SessionCache* cache = nullptr;
};

class EngineStatistics {
public:
    EngineStats snapshot() const;

    void set_state(const char* state); // "idle" | "loading" | "prefill" | "decode"
    void set_sessions(int sessions);
    void set_queued_requests(int requests);
    // A load or unload starts: the model's figures are gone (the decode window, speculation
    // counts and the latest prefix hit are kept).
    void reset(int sessions, const char* state);
    void model_installed(const ModelFacts& facts);

    // One decode step's time per token it produced.
    void record_decode_step(double seconds_per_token);
    // A request finished (any stop reason).
    void record_request(const RequestStats& s);

    // Recomputes the cache figures: the sessions' sequences and the model's pool and prefix
    // cache (`model` null when none is loaded).
    void refresh(const DecoderHandle* model, std::span<const SessionUsage> sessions,
                 int queued_requests);

private:
    using Clock = std::chrono::steady_clock;

    mutable std::mutex m_;
    EngineStats st_;
    std::deque<std::pair<Clock::time_point, double>> decode_window_; // (time, s per token)
    int64_t spec_drafted_ = 0, spec_accepted_ = 0;
    int64_t last_prefix_hit_ = 0;
    CacheStats cache_rate_base_;
    Clock::time_point cache_rate_time_ = Clock::now();
};

} // namespace folio
