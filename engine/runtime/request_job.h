#pragma once
// One submitted request on its way to an answer: its prompt, how far prefill got, the sampler,
// the text so far and the request's statistics. The scheduler (engine.cpp) picks which job steps
// next; a step is one prefill chunk or one decode step (with speculation's drafts verified).
// Worker thread only, except cancel().

#include "folio/engine.h"
#include "folio/error.h"
#include "runtime/prompt_assembly.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace folio {

class Drafter;
class EngineStatistics;
class ImageEmbeddingCache;
class ModelSlot;
class OutputStream;
class Sampler;
class SessionCache;

enum class StopReason { Eos, StopString, Length, Cancelled, Error };

// Prefill chunks while another session decodes interactively: a step about as long as one of its
// decode steps keeps that session's latency close to idle.
class PrefillPacing {
public:
    int64_t chunk(int64_t max_chunk, bool interleave) const;
    void record_prefill(int64_t tokens, double seconds);
    void record_interactive_decode(double seconds_per_token) { decode_step_s_ = seconds_per_token; }

private:
    double decode_step_s_ = 0.02; // recent interactive decode time per token
    double prefill_tps_ = 0;      // smoothed prefill rate
};

// What a step works with, lent by the scheduler.
struct StepContext {
    ModelSlot& model;
    ImageEmbeddingCache& images;
    PrefillPacing& pacing;
    bool interleave = false; // an interactive session is decoding: short prefill chunks
};

// A step that failed: the request fails with `error`; when `cache_damaged`, the session's cache
// may be half-updated (some layers longer than others) and must be dropped first.
struct StepFailure {
    Error error;
    bool cache_damaged = false;
};

class RequestJob {
public:
    using Clock = std::chrono::steady_clock;
    enum class Phase { Queued, Prefill, Decode };

    // `statistics` receives the request's figures when it finishes.
    RequestJob(RequestId id, SessionId session, Request request, EngineStatistics& statistics);
    ~RequestJob();

    RequestId id() const { return id_; }
    SessionId session() const { return session_; }
    bool interactive() const { return req_.interactive; }
    Phase phase() const { return phase_; }
    bool finished() const { return finished_; }
    // Any thread: the next step finishes the job as cancelled.
    void cancel() { cancel_ = true; }
    bool cancelled() const { return cancel_; }
    // When its last step ended (the scheduler serves the longest waiting first).
    Clock::time_point last_step() const { return last_step_; }
    void note_step_end() { last_step_ = Clock::now(); }

    // One step on the session's cache and drafter: a cancelled job finishes, a queued one
    // assembles its prompt and reuses the cached prefix, then prefill chunks, then decode steps.
    std::optional<StepFailure> step(StepContext& ctx, SessionCache& cache, Drafter& drafter);

    // Reports `e` (on_error), then finishes with StopReason::Error.
    void fail(const Error& e);
    // Flushes held-back text, fills in the statistics and calls on_done; once.
    void finish(StopReason why);

private:
    Status start(StepContext& ctx, SessionCache& cache);
    Status prefill(StepContext& ctx, SessionCache& cache);
    Status decode(StepContext& ctx, SessionCache& cache, Drafter& drafter);
    // Emits one accepted token; true when the job finished.
    bool emit(const tokenizer::Tokenizer& tok, int32_t id);
    void record_decode(StepContext& ctx, Clock::time_point t0, size_t tokens);

    const RequestId id_;
    const SessionId session_;
    const Request req_;
    EngineStatistics& statistics_;
    Phase phase_ = Phase::Queued;
    AssembledPrompt prompt_;
    int64_t prefill_pos_ = 0;
    int64_t prefill_tokens_done_ = 0;
    std::vector<float> logits_; // for the next token
    std::unique_ptr<Sampler> sampler_;
    std::unique_ptr<OutputStream> out_;
    std::vector<int32_t> history_; // prompt and answer
    RequestStats stats_;
    Clock::time_point submitted_, prefill_start_, decode_start_, last_step_;
    std::atomic<bool> cancel_{false};
    bool finished_ = false;
};

} // namespace folio
