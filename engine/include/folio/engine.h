#pragma once
// The engine service: one object that loads a model in the background, holds chat sessions,
// schedules their work on one worker thread (chunked prefill, decode steps with priority for
// interactive sessions, speculative decoding) and reports tokens, progress and statistics
// through callbacks. Everything the UI, the CLI and the tests need, std only.
//
// Threading: every callback runs on the engine's worker thread. Callbacks must be quick and
// must not call back into the Engine synchronously (queue the work instead, as EngineWorker
// does with Qt signals). All public methods are thread-safe and never block on inference.

#include "folio/cache.h"
#include "folio/error.h"
#include "folio/message.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace folio {

// Where a model's weights live while it runs (runtime/weights_memory.h). Mapped (the default):
// mapped from the file, read through once at load (the system may drop pages under memory
// pressure and read them again). Ram: a private copy in RAM with 2 MiB pages whenever the
// memory can be had (the file may then change or go away without harm; the memory stays taken).
// Auto: the copy when the machine has transparent huge pages and at least twice the file's size
// available, else mapped. Mapped is the default: the copy was not reliably faster at decode
// (docs/NUMERICS.md, "Choices made by measurement").
enum class WeightsMemory { Auto, Ram, Mapped };

struct ModelSpec {
    std::string gguf;        // the text model
    std::string mmproj;      // optional vision projector (Kimi-VL), "" for none
    int threads = 0;         // 0: all logical cores
    int64_t context = 0;     // tokens per session; 0: min(model limit, 32768)
    int prefill_chunk = 512; // tokens per prefill step (cancel and interleave granularity)
    std::string draft_gguf;  // optional small model with the same vocabulary, for
                             // SpeculationMode::DraftModel
    CacheOptions cache;      // KV storage types, RAM budget and disk tier, prefix sharing
    // Projector outputs kept on disk by (image content, projector file), so a page image is
    // encoded once across runs; "" : in memory only. Oldest files go over the budget.
    std::string image_cache_dir;
    int64_t image_cache_budget = int64_t{512} << 20; // bytes
    WeightsMemory weights = WeightsMemory::Mapped;
};

struct ModelFacts {
    std::string path;
    std::string name;
    std::string architecture;
    uint64_t file_bytes = 0;
    uint64_t parameters = 0;
    uint64_t active_parameters = 0;
    int64_t context_limit = 0; // what sessions get
    int64_t model_context = 0; // what the model was trained for
    uint32_t vocab_size = 0;
    std::string chat_template; // "kimi-k2", "deepseek-v3", ...
    int threads = 0;
    std::string draft_name; // the draft model, "" when none
    // Identifies the model file's contents (hex; size, GGUF header and samples of the tensor
    // data): the key of document caches made with it. Same file, same fingerprint.
    std::string fingerprint;
    std::string projector_fingerprint; // the same of ModelSpec::mmproj, "" without one
    // Why ModelSpec::mmproj was set aside ("" when it loaded, or none was given): a projector
    // that cannot serve the model does not stop it from loading; it answers without images.
    std::string projector_note;
    bool weights_in_ram = false; // copied into RAM (WeightsMemory), not mapped from the file
    // Which device holds which layers' weights and KV, one line per device (e.g. "cpu: layers
    // 0-26, embeddings and output; weights 1.20 GiB, KV 3.4 GiB at 163840 tokens").
    std::string placement;
};

struct Sampling {
    float temperature = 0.7f; // 0: greedy
    int top_k = 40;
    float top_p = 0.95f;
    float min_p = 0.05f;
    float repetition_penalty = 1.0f;
    float presence_penalty = 0.0f;
    uint64_t seed = 0;
};

// PromptLookup drafts from earlier occurrences of the last n-gram in the context; DraftModel
// drafts greedily with ModelSpec::draft_gguf. Either way the model verifies every draft token,
// so greedy output is the same as without speculation.
enum class SpeculationMode { Off, PromptLookup, DraftModel };

struct RequestStats {
    int64_t prompt_tokens = 0;
    int64_t reused_tokens = 0; // prompt tokens whose KV was already in the session (prefix hit)
    // Prompt tokens whose KV the session holds when the request ends: prompt_tokens, or fewer
    // when it was cancelled (or failed) during prefill (reused + the chunks read before).
    int64_t prompt_read_tokens = 0;
    int64_t generated_tokens = 0;
    double ttft_ms = 0; // request submitted -> first token
    double prefill_tps = 0;
    double decode_tps = 0;
    int64_t spec_drafted = 0;
    int64_t spec_accepted = 0;
    std::string stop_reason; // "eos" | "stop" | "length" | "cancelled" | "error"
    std::string text;        // the whole answer
    // Tool calls a remote server returned as structured OpenAI `tool_calls` (vLLM / SGLang with
    // a tool parser), in index order; not part of `text`. Empty for the embedded engine, whose
    // calls are markers in `text` (parse_tool_calls).
    std::vector<ToolCallInfo> tool_calls;
};

struct RequestCallbacks {
    std::function<void(int64_t done, int64_t total, double eta_seconds)> on_prefill_progress;
    // Images of the prompt ready (encoded, or found in the cache: counted at once) of all of
    // them, before the prefill starts; called only for prompts with images, last with done ==
    // total.
    std::function<void(int done_images, int total_images)> on_image_progress;
    std::function<void(std::string_view text, int32_t id)> on_token;
    std::function<void(const RequestStats&)> on_done;
    std::function<void(const Error&)> on_error;
};

struct Request {
    // Either a conversation rendered with the model's chat template ...
    std::vector<Message> messages;
    // ... or raw prompt tokens / text used as given (tokens win when both are set).
    std::vector<int32_t> prompt_tokens;
    std::string prompt_text;
    // Images for prompt_text (needs ModelSpec::mmproj), at its `<__media__>` markers in order, or
    // all before the text when it has none (llama.cpp's mtmd layout, tokenizer/media_prompt.h).
    // Messages carry their own images.
    std::vector<ImageInput> images;
    // Tool declarations (a JSON array of OpenAI-style function schemas) rendered by the chat
    // template; "" : no tools.
    std::string tools_json;
    // Messages only. false: the rendering stops after the last message, without the assistant's
    // header (Kimi "<|im_assistant|>assistant<|im_middle|>"). A document prefix read ahead
    // (max_tokens 0, messages = {system}) is then a token prefix of every later prompt
    // {system, user, ...}: the next question reuses all of it.
    bool generation_prompt = true;
    Sampling sampling;
    // 0: prefill only (read the prompt into the session's cache, generate nothing; on_done
    // reports stop_reason "length" with no text), e.g. to read documents ahead of a question.
    int max_tokens = 512;
    std::vector<std::string> stop;
    bool ignore_eos = false;
    bool interactive = true; // interactive decode steps run before background work
    SpeculationMode speculation = SpeculationMode::Off;
    RequestCallbacks callbacks;
};

struct EngineStats {
    bool model_loaded = false;
    std::string state;        // "idle" | "loading" | "prefill" | "decode"
    int64_t context_used = 0; // tokens cached in the most recent session
    int64_t context_limit = 0;
    uint64_t weights_bytes = 0; // mmapped model file
    uint64_t kv_bytes = 0;      // all sessions' caches
    uint64_t scratch_bytes = 0; // sessions' decoder scratch + the kernel threads' buffers
    double last_prefill_tps = 0;
    double last_decode_tps = 0;
    double window_decode_tps = 0; // over the last ~30 s of decoding
    double last_ttft_ms = 0;
    int64_t prefix_hit_tokens = 0; // total over requests
    double spec_acceptance = 0;    // accepted / drafted over all requests
    int sessions = 0;
    int queued_requests = 0;
    CacheStats cache;                       // devices, tiers, hits, bytes moved
    std::vector<SessionBlockMap> block_map; // per session, for the cache view
    // Cumulative since the Engine was made (kept across loads): tokens read and produced and
    // the worker's time on each. A rate over an interval is the delta of a counter divided by
    // the delta of snapshot_seconds (wall time); the busy seconds tell idle time from work.
    int64_t prefill_tokens_total = 0;
    int64_t decode_tokens_total = 0;
    double prefill_busy_seconds = 0;
    double decode_busy_seconds = 0;
    double snapshot_seconds = 0; // steady clock, seconds since the Engine was made
    // Pages of the mapped model file in RAM (Rss of its mappings in /proc/self/smaps),
    // measured every few seconds; weights_bytes is what is mapped. 0 when not measured.
    uint64_t weights_resident_bytes = 0;
    // The weights are a private copy in RAM with 2 MiB pages (WeightsMemory::Ram, Auto), all of
    // weights_bytes resident; false: mapped from the file.
    bool weights_in_ram = false;
    // Kernel threads: the last step used threads_in_use of threads_configured, fewer when
    // other work kept cores busy (other_cpu_load CPUs' worth over the last half second).
    int threads_in_use = 0;
    int threads_configured = 0;
    double other_cpu_load = 0;
};

struct EngineOptions {
    // Added to the nice value of the scheduler thread and the compute threads it starts, so an
    // interactive application stays responsive while inference saturates the cores (Linux:
    // per-thread nice). 0 leaves priorities alone.
    int worker_nice = 0;
};

struct SnapshotInfo {
    uint64_t bytes = 0;
    int64_t tokens = 0;
    double seconds = 0;
};

using SessionId = int64_t;
using RequestId = int64_t;

class Engine {
public:
    explicit Engine(EngineOptions options = {});
    ~Engine(); // cancels everything and joins the worker
    Engine(const Engine&) = delete;
    Engine& operator=(const Engine&) = delete;

    // Loads in the background; cancels running requests and replaces the current model.
    // The weights are mapped, then read through once so the first answer does not stall on
    // page faults; on_progress (0..1) follows that pass. A newer load() or unload() cancels a
    // load in progress (its on_done then reports Cancelled; for a load that had not started,
    // from the thread calling the newer load()). on_done receives the facts or the
    // error. Returns immediately.
    void load(ModelSpec spec, std::function<void(Expected<ModelFacts>)> on_done,
              std::function<void(double fraction)> on_progress = nullptr);
    // Blocking convenience for the CLI and tests.
    Expected<ModelFacts> load_sync(ModelSpec spec);
    void unload();
    bool loaded() const;

    SessionId create_session();
    void close_session(SessionId id);
    // Forgets the session's cached tokens (the next request prefills from scratch).
    void reset_session(SessionId id);

    // Queues a request for a session (one running request per session: a new one waits).
    // Errors (unknown session, no model) arrive through on_error.
    RequestId submit(SessionId session, Request request);
    // Stops a queued or running request within one decode step or one prefill chunk; its
    // on_done reports stop_reason "cancelled" with the text so far.
    void cancel(RequestId id);
    void cancel_all();

    // Blocks until the request has finished (for the CLI and tests; never from a callback).
    void wait(RequestId id);

    EngineStats stats() const;

    // The number of prompt positions `request` would take, counted with the loaded model's
    // tokenizer and chat template exactly as submit() would assemble it (without running
    // anything; never waits for the worker, safe from any thread except callbacks). Images
    // count as their embedding rows. Errors: no model loaded, a template or tokenizer error.
    Expected<int64_t> count_tokens(const Request& request) const;

    // KV-cache snapshots: saves what the session holds (all tiers, recurrent states) to `path`
    // (atomically), or loads one into an idle session so its next request reuses it (and other
    // sessions through the prefix cache). They run on the worker between steps; the call blocks
    // until done (never call it from a callback). A missing, corrupt, truncated or mismatched
    // snapshot (another model file, kv type or block size) is an error and changes nothing.
    Expected<SnapshotInfo> save_snapshot(SessionId session, const std::string& path);
    Expected<SnapshotInfo> load_snapshot(SessionId session, const std::string& path);

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace folio
