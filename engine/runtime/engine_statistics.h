#pragma once
// The engine's statistics (folio/engine.h EngineStats): what the scheduler and finished requests
// report, the decode rate over the last 30 s, speculation's acceptance, the cache's tiers and
// transfer rates, cumulative token and busy-time counters (rates are their deltas over wall
// time), and how much of the model file is resident. Thread-safe: the worker writes, any thread
// reads a copy (Engine::stats()).

#include "folio/engine.h"
#include "runtime/decoder_adapter.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <mutex>
#include <span>
#include <string>
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

    // One prefill step: `tokens` read in `seconds`.
    void record_prefill(int64_t tokens, double seconds);
    // One decode step: `tokens` produced (more than one with speculation) in `seconds`.
    void record_decode_step(double seconds, int64_t tokens);
    // A request finished (any stop reason).
    void record_request(const RequestStats& s);

    // Recomputes the cache figures: the sessions' sequences and the model's pool and prefix
    // cache (`model` null when none is loaded).
    void refresh(const DecoderHandle* model, std::span<const SessionUsage> sessions,
                 int queued_requests);
    // The kernel threads the last step used, of how many, and the CPUs other work kept busy
    // (runtime/cpu_share.h).
    void record_threads(int in_use, int configured, double others_cpus);

    // How often snapshot() re-reads the model mapping's residency (smaps is not free).
    static constexpr std::chrono::seconds kResidencyPeriod{3};

private:
    using Clock = std::chrono::steady_clock;

    // Re-measures weights residency when kResidencyPeriod has passed (outside m_, so the worker
    // never waits for /proc).
    void update_residency() const;

    mutable std::mutex m_;
    EngineStats st_;
    std::deque<std::pair<Clock::time_point, double>> decode_window_; // (time, s per token)
    int64_t spec_drafted_ = 0, spec_accepted_ = 0;
    int64_t last_prefix_hit_ = 0;
    CacheStats cache_rate_base_;
    Clock::time_point cache_rate_time_ = Clock::now();
    // Counters kept across reset() (EngineStats::prefill_tokens_total, ...).
    const Clock::time_point born_ = Clock::now();
    int64_t prefill_tokens_ = 0, decode_tokens_ = 0;
    double prefill_busy_ = 0, decode_busy_ = 0;
    std::string weights_path_;       // the mapped model file, "" when none
    mutable std::mutex residency_m_; // one reader of smaps at a time
    mutable Clock::time_point residency_time_{};
    mutable std::string residency_path_;
    mutable std::atomic<uint64_t> resident_bytes_{0};
};

} // namespace folio
