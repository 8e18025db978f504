// Engine: the scheduler thread, sessions and requests (see folio/engine.h).
#include "folio/engine.h"

#include "folio/model_info.h"
#include "model/vision/image_io.h"
#include "model/vision/vision_encoder.h"
#include "model/vision/vision_model.h"
#include "runtime/decoder_adapter.h"
#include "runtime/output_stream.h"
#include "runtime/prompt_lookup.h"
#include "runtime/sampler.h"
#include "runtime/sequence_snapshot.h"
#include "tokenizer/media_prompt.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <future>
#include <map>
#include <mutex>
#include <thread>

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace folio {

namespace {

using Clock = std::chrono::steady_clock;

double ms_between(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
}

const char* kStopNames[] = {"eos", "stop", "length", "cancelled", "error"};
enum class Stop { Eos, StopString, Length, Cancelled, Error };

// A prompt position is identified by its token id, or, for an image row, by a key made of the
// image's content hash and the row index (bit 63 set): prefix reuse then compares images by
// content, not by their shared placeholder token.
constexpr uint64_t kImageKeyBit = 1ull << 63;
uint64_t token_key(int32_t id) {
    return static_cast<uint32_t>(id);
}
uint64_t image_row_key(uint64_t hash, int64_t row) {
    return kImageKeyBit | ((hash * 0x100000001b3ull + static_cast<uint64_t>(row)) & ~kImageKeyBit);
}

// The error for a mapped file that faulted (core/fault_guard.h): `kind` is "model" or
// "vision projector".
Error file_lost_under_mapping(const std::string& path, const char* kind, uint64_t pages) {
    return make_error(ErrorCode::Io, path + ": the " + kind +
                                         " file was changed or truncated on disk while in use (" +
                                         std::to_string(pages) +
                                         " pages could not be read); load the model again");
}

uint64_t content_hash(const vision::RgbImage& img) {
    uint64_t h = 0xcbf29ce484222325ull ^ (static_cast<uint64_t>(img.width) << 32) ^
                 static_cast<uint64_t>(img.height);
    for (uint8_t b : img.rgb) {
        h ^= b;
        h *= 0x100000001b3ull;
    }
    return h;
}

bool same_vocabulary(const tokenizer::Tokenizer& a, const tokenizer::Tokenizer& b) {
    if (a.vocab_size() != b.vocab_size())
        return false;
    for (size_t i = 0; i < a.vocab_size(); ++i)
        if (a.token_text(static_cast<int32_t>(i)) != b.token_text(static_cast<int32_t>(i)))
            return false;
    return true;
}

} // namespace

struct Engine::Impl {
    struct Session {
        std::unique_ptr<DecoderSequence> seq;
        std::vector<uint64_t> tokens; // keys (token_key / image_row_key) of exactly what seq holds
        std::unique_ptr<DecoderSequence> draft_seq; // the draft model's view of the same text
        std::vector<int32_t> draft_tokens;
        bool closing = false;
    };

    struct Job {
        RequestId id = 0;
        SessionId session = 0;
        Request req;
        enum class Phase { Queued, Prefill, Decode } phase = Phase::Queued;
        std::vector<int32_t> prompt;          // ids (image rows: the placeholder id)
        std::vector<uint64_t> keys;           // per prompt position
        std::vector<const float*> image_rows; // per prompt position: embedding row or null
        std::vector<std::shared_ptr<const std::vector<float>>> images; // keeps image_rows alive
        int64_t prefill_pos = 0;
        std::vector<float> logits; // for the next token
        std::unique_ptr<Sampler> sampler;
        std::unique_ptr<OutputStream> out;
        std::vector<int32_t> history;
        RequestStats stats;
        Clock::time_point submitted, prefill_start, decode_start;
        int64_t prefill_tokens_done = 0;
        double decode_seconds = 0;
        std::atomic<bool> cancel{false};
        bool finished = false;
        Clock::time_point last_step;
    };

    // --- shared state (guarded by m) ---
    mutable std::mutex m;
    std::condition_variable cv;      // wakes the worker
    std::condition_variable done_cv; // wakes wait()
    bool quit = false;
    std::shared_ptr<DecoderHandle> model;
    std::shared_ptr<DecoderHandle> draft;        // optional draft model (same vocabulary)
    std::shared_ptr<vision::VisionModel> vision; // optional projector (ModelSpec::mmproj)
    // Image embeddings by content hash, so a document's page images are encoded once.
    std::map<uint64_t, std::shared_ptr<const std::vector<float>>> image_cache;
    std::deque<uint64_t> image_cache_order;
    ModelFacts facts;
    int threads = 1;
    int prefill_chunk = 512;
    int64_t context_limit = 0;
    std::optional<ModelSpec> load_request;
    std::function<void(Expected<ModelFacts>)> load_done;
    std::function<void(double)> load_progress;
    bool loading = false;
    bool unload_request = false;
    std::map<SessionId, Session> sessions;
    SessionId next_session = 1;
    std::map<RequestId, std::shared_ptr<Job>> jobs;
    std::deque<RequestId> order;
    RequestId next_request = 1;
    EngineStats st;
    std::deque<std::pair<Clock::time_point, double>> decode_window; // (time, seconds per token)
    int64_t spec_drafted = 0, spec_accepted = 0;
    double last_decode_step_s = 0.02; // recent decode step time (for prefill interleaving)
    double prefill_tps_estimate = 0;
    // Set once the model file could not be read (truncated under us): every request fails.
    std::optional<Error> model_fault;
    std::optional<Error> vision_fault; // the projector's file failed under its mapping
    uint64_t cache_faults_seen = 0;
    std::optional<Error> pending_fault; // found inside a step, handled after it

    // Sequences of reset or closed sessions: their blocks go back to the pool on the worker,
    // which owns the pool (callers' threads never touch it).
    std::vector<std::unique_ptr<DecoderSequence>> retired;
    // Work run on the worker between steps (snapshots), in order.
    std::deque<std::function<void()>> control;

    std::thread worker;

    explicit Impl(EngineOptions options) {
        worker = std::thread([this, options] {
            if (options.worker_nice != 0) {
                // Threads this one creates (the OpenMP team) inherit its nice value.
                const auto tid = static_cast<id_t>(syscall(SYS_gettid));
                setpriority(PRIO_PROCESS, tid,
                            getpriority(PRIO_PROCESS, tid) + options.worker_nice);
            }
            run();
        });
    }
    ~Impl() {
        {
            std::lock_guard lk(m);
            quit = true;
            for (auto& [id, job] : jobs)
                job->cancel = true;
        }
        cv.notify_all();
        worker.join();
    }

    // ---------------------------------------------------------------- worker
    void run() {
        for (;;) {
            std::unique_lock lk(m);
            cv.wait(lk, [&] {
                return quit || load_request || unload_request || !control.empty() ||
                       !retired.empty() || runnable() != nullptr;
            });
            retired.clear();
            if (quit)
                break;
            if (!control.empty()) {
                auto task = std::move(control.front());
                control.pop_front();
                lk.unlock();
                task();
                lk.lock();
                refresh_stats_locked();
                continue;
            }
            if (load_request || unload_request) {
                handle_load(lk);
                continue;
            }
            std::shared_ptr<Job> job = runnable();
            if (!job) // woken only to free retired sequences
                continue;
            st.state = job->phase == Job::Phase::Decode ? "decode" : "prefill";
            Session* session = &sessions[job->session];
            const bool interleave = interactive_decode_waiting(job.get());
            lk.unlock();
            step(*job, *session, interleave);
            lk.lock();
            check_read_faults(lk);
            job->last_step = Clock::now();
            if (job->finished) {
                jobs.erase(job->id);
                order.erase(std::remove(order.begin(), order.end(), job->id), order.end());
                auto it = sessions.find(job->session);
                if (it != sessions.end() && it->second.closing && !session_has_jobs(job->session))
                    sessions.erase(it);
                done_cv.notify_all();
            }
            refresh_stats_locked();
            if (jobs.empty())
                st.state = "idle";
        }
        // Finish whatever is left as cancelled (callbacks still run).
        std::vector<std::shared_ptr<Job>> left;
        {
            std::lock_guard lk(m);
            for (auto& [id, job] : jobs)
                left.push_back(job);
        }
        for (auto& job : left)
            finish(*job, Stop::Cancelled);
        std::lock_guard lk(m);
        forget_jobs(left);
    }

    // Forgets what the session has cached (the next request computes from scratch). Under m.
    void drop_cache(Session& s) {
        retire(s);
        s.tokens.clear();
        s.draft_tokens.clear();
    }

    void retire(Session& s) {
        if (s.seq)
            retired.push_back(std::move(s.seq));
        if (s.draft_seq)
            retired.push_back(std::move(s.draft_seq));
    }

    // Runs fn on the worker between steps and returns its result (blocking the caller).
    template <typename T> Expected<T> run_control(std::function<Expected<T>()> fn) {
        auto promise = std::make_shared<std::promise<Expected<T>>>();
        auto future = promise->get_future();
        {
            std::lock_guard lk(m);
            if (quit)
                return make_error(ErrorCode::Cancelled, "the engine is shutting down");
            control.push_back([fn = std::move(fn), promise] { promise->set_value(fn()); });
        }
        cv.notify_all();
        return future.get();
    }

    Expected<SnapshotInfo> save_snapshot(SessionId id, const std::string& path) {
        const auto t0 = Clock::now();
        std::unique_lock lk(m);
        if (!model)
            return make_error(ErrorCode::InvalidArgument, "no model is loaded");
        auto it = sessions.find(id);
        if (it == sessions.end() || !it->second.seq || it->second.tokens.empty())
            return make_error(ErrorCode::InvalidArgument,
                              "session " + std::to_string(id) + " holds no cached tokens");
        // Borrow the sequence (a close_session meanwhile then cannot free it under us).
        std::unique_ptr<DecoderSequence> seq = std::move(it->second.seq);
        const std::vector<uint64_t> tokens = it->second.tokens;
        std::shared_ptr<DecoderHandle> h = model;
        lk.unlock();
        auto saved = save_sequence_snapshot(*h, *seq, tokens.data(), path);
        lk.lock();
        auto back = sessions.find(id);
        if (back != sessions.end() && !back->second.seq)
            back->second.seq = std::move(seq);
        else
            retired.push_back(std::move(seq));
        if (!saved)
            return saved.error();
        return SnapshotInfo{saved->bytes, saved->tokens,
                            std::chrono::duration<double>(Clock::now() - t0).count()};
    }

    Expected<SnapshotInfo> load_snapshot(SessionId id, const std::string& path) {
        const auto t0 = Clock::now();
        std::unique_lock lk(m);
        if (!model)
            return make_error(ErrorCode::InvalidArgument, "no model is loaded");
        auto it = sessions.find(id);
        if (it == sessions.end())
            return make_error(ErrorCode::InvalidArgument, "unknown session " + std::to_string(id));
        if (session_has_jobs(id))
            return make_error(ErrorCode::InvalidArgument,
                              "session " + std::to_string(id) + " is busy");
        std::shared_ptr<DecoderHandle> h = model;
        lk.unlock();
        auto seq = new_sequence(*h, context_limit);
        std::vector<uint64_t> keys;
        auto loaded = load_sequence_snapshot(*h, *seq, path, keys);
        lk.lock();
        it = sessions.find(id);
        if (!loaded || it == sessions.end()) {
            retired.push_back(std::move(seq));
            if (!loaded)
                return loaded.error();
            return make_error(ErrorCode::InvalidArgument, "the session was closed");
        }
        Session& session = it->second;
        retire(session);
        session.seq = std::move(seq);
        session.tokens = std::move(keys);
        session.draft_tokens.clear();
        register_prefix(*h, *session.seq, session.tokens.data());
        return SnapshotInfo{loaded->bytes, loaded->tokens,
                            std::chrono::duration<double>(Clock::now() - t0).count()};
    }

    bool session_has_jobs(SessionId s) const {
        for (const auto& [id, job] : jobs)
            if (job->session == s)
                return true;
        return false;
    }

    // The job to step next: one active job per session (the oldest), interactive decode first,
    // then interactive prefill, then background decode, then background prefill; among equals
    // the one that waited longest.
    std::shared_ptr<Job> runnable() const {
        if (!model)
            return order.empty() ? nullptr : jobs.at(order.front()); // fails them with an error
        std::map<SessionId, std::shared_ptr<Job>> active;
        for (RequestId id : order) {
            const auto& job = jobs.at(id);
            if (!active.count(job->session))
                active[job->session] = job;
        }
        std::shared_ptr<Job> best;
        int best_class = 99;
        for (const auto& [sid, job] : active) {
            int cls = (job->req.interactive ? 0 : 2) + (job->phase == Job::Phase::Decode ? 0 : 1);
            if (job->cancel)
                cls = -1; // finish cancellations at once
            if (cls < best_class || (cls == best_class && job->last_step < best->last_step)) {
                best = job;
                best_class = cls;
            }
        }
        return best;
    }

    // The error for read faults not seen before (recording them), or nothing. Worker only.
    std::optional<Error> take_read_fault() {
        if (!model)
            return std::nullopt;
        ReadFaults f = decoder_read_faults(*model);
        std::string what = facts.path;
        if (draft && f.weights == 0) {
            f.weights = decoder_read_faults(*draft).weights;
            what = facts.draft_name + " (draft model)";
        }
        if (f.weights > 0 && !model_fault) {
            model_fault = file_lost_under_mapping(what, "model", f.weights);
            return model_fault;
        }
        if (f.cache > cache_faults_seen) {
            const uint64_t lost = f.cache - cache_faults_seen;
            cache_faults_seen = f.cache;
            return make_error(ErrorCode::Io,
                              "the KV cache's offload file could not be read back (" +
                                  std::to_string(lost) +
                                  " pages lost to an I/O error or truncation); the cached "
                                  "conversation was dropped and will be computed again");
        }
        return std::nullopt;
    }

    // SIGBUS on the model's or the offload file's mapping became zero pages
    // (core/fault_guard.h): whatever was computed since the last check is wrong. Every running
    // request fails with the reason and the sessions' caches are dropped (they were computed
    // from, or read back as, zeros). A truncated model stays refused until a load.
    void check_read_faults(std::unique_lock<std::mutex>& lk) {
        std::optional<Error> e = take_read_fault();
        if (!e)
            e = std::exchange(pending_fault, std::nullopt);
        if (!e)
            return;
        std::vector<std::shared_ptr<Job>> failed;
        for (auto& [id, job] : jobs)
            failed.push_back(job);
        for (auto it = sessions.begin(); it != sessions.end();) {
            drop_cache(it->second);
            it = it->second.closing ? sessions.erase(it) : std::next(it);
        }
        if (model)
            drop_prefix_cache(*model);
        lk.unlock();
        for (auto& job : failed) {
            job->cancel = true;
            if (!job->finished)
                fail(*job, *e);
        }
        lk.lock();
        forget_jobs(failed);
    }

    // Removes jobs whose callbacks have run (wait() returns once a job is gone, so a job leaves
    // the map only after its on_done). Under the lock.
    void forget_jobs(const std::vector<std::shared_ptr<Job>>& done) {
        for (const auto& job : done) {
            jobs.erase(job->id);
            order.erase(std::remove(order.begin(), order.end(), job->id), order.end());
        }
        done_cv.notify_all();
    }

    bool interactive_decode_waiting(const Job* except) const {
        for (const auto& [id, job] : jobs)
            if (job.get() != except && job->req.interactive && job->phase == Job::Phase::Decode)
                return true;
        return false;
    }

    void handle_load(std::unique_lock<std::mutex>& lk) {
        std::optional<ModelSpec> spec = std::move(load_request);
        load_request.reset();
        auto done = std::move(load_done);
        load_done = nullptr;
        auto progress = std::move(load_progress);
        load_progress = nullptr;
        unload_request = false;
        // Cancel every request and drop the sessions' caches (they belong to the old model).
        std::vector<std::shared_ptr<Job>> cancelled;
        for (auto& [id, job] : jobs)
            cancelled.push_back(job);
        for (auto& [sid, s] : sessions) {
            s.seq.reset();
            s.tokens.clear();
            s.draft_seq.reset();
            s.draft_tokens.clear();
        }
        model.reset();
        draft.reset();
        vision.reset();
        model_fault.reset();
        vision_fault.reset();
        cache_faults_seen = 0;
        image_cache.clear();
        image_cache_order.clear();
        st = EngineStats{};
        st.sessions = static_cast<int>(sessions.size());
        loading = spec.has_value();
        st.state = loading ? "loading" : "idle";
        lk.unlock();
        for (auto& job : cancelled) {
            job->cancel = true;
            finish(*job, Stop::Cancelled);
        }
        lk.lock();
        forget_jobs(cancelled);
        if (!spec)
            return;
        lk.unlock();
        auto loaded = load_decoder_handle(spec->gguf, spec->cache);
        std::shared_ptr<DecoderHandle> draft_handle;
        std::optional<Error> draft_error;
        if (loaded && !spec->draft_gguf.empty()) {
            auto d = load_decoder_handle(spec->draft_gguf);
            if (!d)
                draft_error = d.error();
            else if (!same_vocabulary(decoder_tokenizer(**loaded), decoder_tokenizer(**d)))
                draft_error =
                    make_error(ErrorCode::InvalidArgument,
                               spec->draft_gguf + ": the draft model's vocabulary differs from " +
                                   spec->gguf + "'s");
            else
                draft_handle = *d;
        }
        std::shared_ptr<vision::VisionModel> vision_model;
        if (loaded && !draft_error && !spec->mmproj.empty()) {
            auto v = vision::load_vision_model(spec->mmproj);
            if (!v)
                draft_error = v.error();
            else if (static_cast<int64_t>(v->hp.n_embd_text) != decoder_embedding_size(**loaded))
                draft_error =
                    make_error(ErrorCode::InvalidArgument,
                               spec->mmproj + ": projects to " + std::to_string(v->hp.n_embd_text) +
                                   " values, the text model's rows have " +
                                   std::to_string(decoder_embedding_size(**loaded)));
            else
                vision_model = std::make_shared<vision::VisionModel>(std::move(*v));
        }
        Expected<ModelFacts> result = make_error(ErrorCode::Internal, "not loaded");
        if (loaded && !draft_error) {
            auto superseded = [this] {
                std::lock_guard g(m);
                return quit || load_request.has_value() || unload_request;
            };
            if (!prefault_weights(**loaded, progress, superseded))
                draft_error =
                    make_error(ErrorCode::Cancelled, spec->gguf + ": loading was cancelled");
        }
        lk.lock();
        loading = false;
        st.state = "idle";
        if (!loaded) {
            result = loaded.error();
        } else if (draft_error) {
            result = *draft_error;
        } else {
            draft = draft_handle;
            vision = vision_model;
            model = *loaded;
            const DecoderFacts& df = decoder_facts(*model);
            ModelFacts f;
            f.path = spec->gguf;
            f.name = df.name;
            f.architecture = df.architecture;
            f.vocab_size = df.vocab_size;
            f.model_context = df.context_length;
            f.context_limit = spec->context > 0 ? std::min(spec->context, df.context_length)
                                                : std::min<int64_t>(df.context_length, 32768);
            f.file_bytes = decoder_weight_bytes(*model);
            auto info = inspect_model(spec->gguf);
            if (info) {
                f.parameters = info->parameter_count;
                f.active_parameters = info->active_parameter_count;
            }
            auto tmpl = decoder_chat_template(*model);
            f.chat_template = tmpl ? std::string(tokenizer::template_name(*tmpl)) : "";
            threads = spec->threads > 0
                          ? spec->threads
                          : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
            f.threads = threads;
            f.draft_name = draft ? decoder_facts(*draft).name : "";
            prefill_chunk = std::max(1, spec->prefill_chunk);
            context_limit = f.context_limit;
            facts = f;
            st.model_loaded = true;
            st.context_limit = context_limit;
            st.weights_bytes = f.file_bytes;
            result = f;
        }
        lk.unlock();
        if (done)
            done(std::move(result));
        lk.lock();
    }

    // ---------------------------------------------------------------- one step of a job
    void step(Job& job, Session& session, bool interleave) {
        try {
            step_unguarded(job, session, interleave);
        } catch (const std::bad_alloc&) {
            // The system refused memory mid-step: the session's cache may be half-updated.
            fail_step(job, session,
                      make_error(ErrorCode::OutOfMemory,
                                 "out of memory while evaluating the prompt or answer; lower the "
                                 "context length or the RAM budget, set an offload folder, or "
                                 "close other chats"));
        }
    }

    // A step that failed may have left some layers of the session's cache longer than others:
    // the cache is dropped (the next request recomputes) and the request fails with `e`.
    void fail_step(Job& job, Session& session, const Error& e) {
        {
            std::lock_guard lk(m);
            drop_cache(session);
        }
        fail(job, e);
    }

    void step_unguarded(Job& job, Session& session, bool interleave) {
        if (job.cancel) {
            finish(job, Stop::Cancelled);
            return;
        }
        if (!model) {
            fail(job, make_error(ErrorCode::InvalidArgument, "no model is loaded"));
            return;
        }
        if (model_fault) {
            fail(job, *model_fault);
            return;
        }
        if (job.phase == Job::Phase::Queued) {
            Status s = start(job, session);
            if (!s)
                fail(job, s.error());
            return;
        }
        if (job.phase == Job::Phase::Prefill) {
            Status s = prefill_chunk_step(job, session, interleave);
            if (!s)
                fail_step(job, session, s.error());
            return;
        }
        Status s = decode_step(job, session);
        if (!s)
            fail_step(job, session, s.error());
    }

    Status start(Job& job, Session& session) {
        const DecoderHandle& h = *model;
        const tokenizer::Tokenizer& tok = decoder_tokenizer(h);
        Request& r = job.req;
        if (!r.prompt_tokens.empty()) {
            job.prompt = r.prompt_tokens;
        } else if (!r.messages.empty()) {
            FOLIO_TRY(kind, decoder_chat_template(h));
            std::vector<tokenizer::ChatMessage> msgs;
            std::vector<const ImageInput*> images;
            for (const Message& msg : r.messages) {
                std::vector<tokenizer::ToolCall> calls;
                for (const ToolCallInfo& c : msg.tool_calls)
                    calls.push_back({c.id, c.name, c.arguments});
                msgs.push_back(
                    {msg.role, msg.content, static_cast<int>(msg.images.size()), std::move(calls)});
                for (const ImageInput& img : msg.images)
                    images.push_back(&img);
            }
            if (!images.empty()) {
                if (!vision)
                    return make_error(
                        ErrorCode::InvalidArgument,
                        "the request has images but no vision projector is loaded (mmproj)");
                if (kind == tokenizer::TemplateKind::KimiK2)
                    kind = tokenizer::TemplateKind::KimiVL; // Kimi-VL: same turns plus media tokens
            }
            tokenizer::ChatOptions chat_options;
            chat_options.tools_json = r.tools_json;
            FOLIO_TRY(text, tokenizer::apply_chat_template(kind, msgs, true, chat_options));
            FOLIO_TRY(ids, tok.encode(text, true, true));
            FOLIO_CHECK(expand_images(job, ids, images));
        } else if (!r.images.empty()) { // text with <__media__> markers (tokenizer/media_prompt.h)
            if (!vision)
                return make_error(ErrorCode::InvalidArgument,
                                  "the request has images but no vision projector is loaded");
            FOLIO_TRY(ids, tokenizer::media_prompt_ids(tok, r.prompt_text,
                                                       static_cast<int>(r.images.size())));
            std::vector<const ImageInput*> images;
            for (const ImageInput& img : r.images)
                images.push_back(&img);
            FOLIO_CHECK(expand_images(job, ids, images));
        } else {
            FOLIO_TRY(ids, tok.encode(r.prompt_text, true, true));
            job.prompt = std::move(ids);
        }
        if (job.keys.empty()) { // text only: every position is its token
            for (int32_t id : job.prompt)
                job.keys.push_back(token_key(id));
            job.image_rows.assign(job.prompt.size(), nullptr);
        }
        if (job.prompt.empty())
            return make_error(ErrorCode::InvalidArgument, "the prompt is empty");
        for (int32_t id : job.prompt)
            if (!tok.valid(id))
                return make_error(ErrorCode::InvalidArgument, "prompt token id " +
                                                                  std::to_string(id) +
                                                                  " is outside the vocabulary");
        if (static_cast<int64_t>(job.prompt.size()) >= context_limit)
            return make_error(ErrorCode::InvalidArgument,
                              "the prompt has " + std::to_string(job.prompt.size()) +
                                  " tokens; the context holds " + std::to_string(context_limit));

        // Prefix reuse: keep the KV of the longest common prefix with what the session holds.
        if (!session.seq)
            session.seq = new_sequence(h, context_limit);
        int64_t common = 0;
        const int64_t have = static_cast<int64_t>(session.tokens.size());
        while (common < have && common < static_cast<int64_t>(job.prompt.size()) &&
               session.tokens[common] == job.keys[common])
            ++common;
        if (common == static_cast<int64_t>(job.prompt.size()))
            --common; // the last prompt token is evaluated again for its logits
        if (common < have) {
            // Attention caches drop any suffix; recurrent (KDA) states rewind only to the
            // checkpoint taken at the end of the previous prompt, or start over.
            const int64_t checkpoint = sequence_checkpoint(*session.seq);
            if (!sequence_can_truncate_to(*session.seq, common))
                common = checkpoint >= 0 && checkpoint <= common ? checkpoint : 0;
            if (!truncate_sequence(*session.seq, common)) {
                session.seq = new_sequence(h, context_limit);
                common = 0;
            }
            session.tokens.resize(static_cast<size_t>(common));
        }
        // The prefix cache may hold more of this prompt (another session's document, or blocks
        // this session already dropped): take its blocks instead of recomputing them.
        if (const int64_t adopted =
                adopt_cached_prefix(h, *session.seq, job.keys.data(),
                                    static_cast<int64_t>(job.prompt.size()) - 1, common);
            adopted > 0) {
            session.tokens.assign(job.keys.begin(), job.keys.begin() + adopted);
            common = adopted;
        }
        job.prefill_pos = common;
        job.stats.prompt_tokens = static_cast<int64_t>(job.prompt.size());
        job.stats.reused_tokens = common;
        job.sampler = std::make_unique<Sampler>(SamplingParams{
            r.sampling.temperature, r.sampling.top_k, r.sampling.top_p, r.sampling.min_p,
            r.sampling.repetition_penalty, r.sampling.presence_penalty,
            SamplingParams{}.penalty_last_n, r.sampling.seed});
        // In Kimi-K2's real vocabulary the tool-call markers (<|tool_calls_section_begin|>, ...)
        // are CONTROL tokens: a request that declares tools must see them in its text, or the
        // calls could never be parsed (agent/tool_calls.h).
        job.out = std::make_unique<OutputStream>(tok, r.stop, !r.tools_json.empty());
        job.history = job.prompt;
        job.phase = Job::Phase::Prefill;
        job.prefill_start = Clock::now();
        return {};
    }

    Status prefill_chunk_step(Job& job, Session& session, bool interleave) {
        const int64_t total = static_cast<int64_t>(job.prompt.size());
        int64_t chunk = prefill_chunk;
        if (interleave && prefill_tps_estimate > 0) {
            // Another session is decoding interactively: keep this step about as long as one of
            // its decode steps, so its latency stays close to idle.
            chunk = std::clamp<int64_t>(
                static_cast<int64_t>(prefill_tps_estimate * last_decode_step_s), 1, prefill_chunk);
        }
        int64_t n = std::min(chunk, total - job.prefill_pos);
        // Recurrent models keep prefix-cache states where steps end on these boundaries.
        n = std::min(n, prefix_step_end(*model, job.prefill_pos, total) - job.prefill_pos);
        const auto t0 = Clock::now();
        const bool has_image = std::any_of(job.image_rows.begin() + job.prefill_pos,
                                           job.image_rows.begin() + job.prefill_pos + n,
                                           [](const float* r) { return r != nullptr; });
        if (has_image) {
            // Mixed rows: embed the chunk's tokens, then put the image rows in their places.
            const int64_t E = decoder_embedding_size(*model);
            std::vector<float> rows(static_cast<size_t>(n * E));
            FOLIO_CHECK(embed_tokens(*model, job.prompt.data() + job.prefill_pos, n, rows.data()));
            for (int64_t i = 0; i < n; ++i)
                if (const float* img = job.image_rows[job.prefill_pos + i])
                    std::copy(img, img + E, rows.begin() + i * E);
            FOLIO_CHECK(
                eval_embeddings(*model, *session.seq, rows.data(), n, false, threads, job.logits));
        } else {
            FOLIO_CHECK(eval_tokens(*model, *session.seq, job.prompt.data() + job.prefill_pos, n,
                                    false, threads, job.logits));
        }
        const double secs = std::chrono::duration<double>(Clock::now() - t0).count();
        if (secs > 0)
            prefill_tps_estimate =
                prefill_tps_estimate > 0 ? 0.7 * prefill_tps_estimate + 0.3 * (n / secs) : n / secs;
        session.tokens.insert(session.tokens.end(), job.keys.begin() + job.prefill_pos,
                              job.keys.begin() + job.prefill_pos + n);
        register_prefix(*model, *session.seq, session.tokens.data());
        job.prefill_pos += n;
        job.prefill_tokens_done += n;
        const int64_t todo = total - job.stats.reused_tokens;
        const double elapsed =
            std::chrono::duration<double>(Clock::now() - job.prefill_start).count();
        const double eta = job.prefill_tokens_done > 0
                               ? elapsed / job.prefill_tokens_done * (total - job.prefill_pos)
                               : 0.0;
        if (job.req.callbacks.on_prefill_progress)
            job.req.callbacks.on_prefill_progress(job.prefill_tokens_done, todo, eta);
        if (job.prefill_pos == total) {
            checkpoint_sequence(*session.seq); // the next question can rewind to here
            job.stats.prefill_tps = elapsed > 0 ? job.prefill_tokens_done / elapsed : 0;
            job.phase = Job::Phase::Decode;
            job.decode_start = Clock::now();
        }
        return {};
    }

    // Emits one accepted token; true when the job finished.
    bool emit(Job& job, int32_t id) {
        const tokenizer::Tokenizer& tok = decoder_tokenizer(*model);
        job.history.push_back(id);
        if (job.stats.generated_tokens == 0)
            job.stats.ttft_ms = ms_between(job.submitted, Clock::now());
        ++job.stats.generated_tokens;
        if (!job.req.ignore_eos && tok.is_eog(id)) {
            finish(job, Stop::Eos);
            return true;
        }
        auto step = job.out->push(id);
        if (!step) {
            fail(job, step.error());
            return true;
        }
        if (job.req.callbacks.on_token) // also with empty text: the UI counts tokens
            job.req.callbacks.on_token(step->text, id);
        if (step->stopped) {
            finish(job, Stop::StopString);
            return true;
        }
        if (job.stats.generated_tokens >= job.req.max_tokens) {
            finish(job, Stop::Length);
            return true;
        }
        return false;
    }

    Status decode_step(Job& job, Session& session) {
        const auto t0 = Clock::now();
        const int32_t id = job.sampler->sample(job.logits, job.history);
        const int64_t room = context_limit - sequence_length(*session.seq);
        if (emit(job, id))
            return {};
        if (room <= 1) {
            finish(job, Stop::Length); // the context is full
            return {};
        }
        std::vector<int32_t> batch{id};
        const int max_draft = static_cast<int>(
            std::min<int64_t>({8, room - 1, job.req.max_tokens - job.stats.generated_tokens}));
        if (max_draft > 0 && decoder_facts(*model).can_rollback) {
            if (job.req.speculation == SpeculationMode::PromptLookup) {
                PromptLookupParams p;
                p.max_draft = max_draft;
                auto drafted = draft_prompt_lookup(job.history, p);
                batch.insert(batch.end(), drafted.begin(), drafted.end());
            } else if (job.req.speculation == SpeculationMode::DraftModel && draft) {
                // The draft model reads text only: no drafting over image rows.
                if (std::none_of(session.tokens.begin(), session.tokens.end(),
                                 [](uint64_t k) { return (k & kImageKeyBit) != 0; })) {
                    std::vector<int32_t> context(session.tokens.begin(), session.tokens.end());
                    context.push_back(id);
                    FOLIO_TRY(drafted, draft_with_model(session, context, std::min(max_draft, 4)));
                    batch.insert(batch.end(), drafted.begin(), drafted.end());
                }
            }
        }
        const int64_t before = sequence_length(*session.seq);
        std::vector<float> rows;
        FOLIO_CHECK(eval_tokens(*model, *session.seq, batch.data(),
                                static_cast<int64_t>(batch.size()), batch.size() > 1, threads,
                                rows));
        // Drafts are verified from these rows right away: never from zeros read after a fault.
        if (auto fault = take_read_fault()) {
            pending_fault = fault;
            return *fault;
        }
        const int64_t V = decoder_facts(*model).vocab_size;
        size_t accepted = 0;
        bool finished = false;
        // Verify drafts: the model's own choice after batch[i] must equal batch[i + 1].
        for (size_t i = 1; i < batch.size(); ++i) {
            std::span<const float> row(rows.data() + (i - 1) * V, static_cast<size_t>(V));
            const int32_t choice = job.sampler->sample(row, job.history);
            ++job.stats.spec_drafted;
            if (choice != batch[i]) {
                // The rejected draft's slot holds the model's own token: it is emitted and the
                // next step continues from it.
                job.logits.clear();
                finished = emit(job, choice);
                if (!finished) {
                    FOLIO_CHECK(truncate_sequence(*session.seq, before + static_cast<int64_t>(i)));
                    append_ids(session, batch.begin(), batch.begin() + static_cast<long>(i));
                    // Evaluate the model's token to get the logits after it.
                    FOLIO_CHECK(
                        eval_tokens(*model, *session.seq, &choice, 1, false, threads, job.logits));
                    session.tokens.push_back(token_key(choice));
                } else {
                    FOLIO_CHECK(truncate_sequence(*session.seq, before + static_cast<int64_t>(i)));
                    append_ids(session, batch.begin(), batch.begin() + static_cast<long>(i));
                }
                record_decode(job, t0, accepted + 2);
                return {};
            }
            ++job.stats.spec_accepted;
            ++accepted;
            if (emit(job, batch[i])) {
                finished = true;
                FOLIO_CHECK(truncate_sequence(*session.seq, before + static_cast<int64_t>(i) + 1));
                append_ids(session, batch.begin(), batch.begin() + static_cast<long>(i) + 1);
                record_decode(job, t0, accepted + 1);
                return {};
            }
        }
        append_ids(session, batch.begin(), batch.end());
        const size_t last = batch.size() - 1;
        job.logits.assign(rows.begin() + static_cast<long>(last * V),
                          rows.begin() + static_cast<long>((last + 1) * V));
        record_decode(job, t0, accepted + 1);
        (void)finished;
        return {};
    }

    template <typename It> static void append_ids(Session& session, It begin, It end) {
        for (It it = begin; it != end; ++it)
            session.tokens.push_back(token_key(*it));
    }

    // The projector output for one image, from the cache when the same pixels were seen.
    Expected<std::shared_ptr<const std::vector<float>>> embeddings_of(const ImageInput& in,
                                                                      uint64_t* hash) {
        Expected<vision::RgbImage> img = in.path.empty()
                                             ? vision::image_from_rgb8(in.width, in.height, in.rgb)
                                             : vision::load_image_file(in.path);
        if (!img)
            return img.error();
        *hash = content_hash(*img);
        if (auto it = image_cache.find(*hash); it != image_cache.end())
            return it->second;
        if (vision_fault)
            return *vision_fault;
        int n_tokens = 0;
        FOLIO_TRY(rows, vision::encode_image(*vision, *img,
                                             KernelContext{threads, KernelPath::Auto}, &n_tokens));
        // SIGBUS on the projector's mapping became zero pages (core/fault_guard.h): these rows
        // are wrong and so would every later encoding be. The text model is unaffected.
        if (const uint64_t lost = vision->file->read_faults(); lost > 0) {
            vision_fault = file_lost_under_mapping(vision->file->path(), "vision projector", lost);
            return *vision_fault;
        }
        auto shared = std::make_shared<const std::vector<float>>(std::move(rows));
        image_cache[*hash] = shared;
        image_cache_order.push_back(*hash);
        while (image_cache_order.size() > 64) { // bounded: about a report's worth of page images
            image_cache.erase(image_cache_order.front());
            image_cache_order.pop_front();
        }
        return shared;
    }

    // Replaces each image placeholder token of `ids` by the image's embedding rows (one position
    // per row), between the media start/end tokens the template wrote (GGUF_LAYOUT.md §6.6).
    Status expand_images(Job& job, const std::vector<int32_t>& ids,
                         const std::vector<const ImageInput*>& images) {
        const tokenizer::Tokenizer& tok = decoder_tokenizer(*model);
        const auto placeholder = images.empty() ? std::optional<int32_t>()
                                                : tok.find_token(tokenizer::kKimiImagePlaceholder);
        if (!images.empty() && !placeholder)
            return make_error(ErrorCode::Unsupported,
                              "the vocabulary has no image placeholder token");
        const int64_t E = decoder_embedding_size(*model);
        size_t next = 0;
        for (int32_t id : ids) {
            if (placeholder && id == *placeholder && next < images.size()) {
                uint64_t hash = 0;
                FOLIO_TRY(rows, embeddings_of(*images[next++], &hash));
                const int64_t n = static_cast<int64_t>(rows->size()) / E;
                for (int64_t r = 0; r < n; ++r) {
                    job.prompt.push_back(id);
                    job.keys.push_back(image_row_key(hash, r));
                    job.image_rows.push_back(rows->data() + r * E);
                }
                job.images.push_back(rows);
            } else {
                job.prompt.push_back(id);
                job.keys.push_back(token_key(id));
                job.image_rows.push_back(nullptr);
            }
        }
        if (next != images.size())
            return make_error(ErrorCode::Internal, "the template placed " + std::to_string(next) +
                                                       " of " + std::to_string(images.size()) +
                                                       " images");
        return {};
    }

    // Greedy draft of up to k tokens by the draft model continuing `context`. The draft
    // sequence is kept in step with the main one: only what changed since the last call is
    // evaluated (everything the first time).
    Expected<std::vector<int32_t>> draft_with_model(Session& session,
                                                    const std::vector<int32_t>& context, int k) {
        const DecoderHandle& d = *draft;
        if (!session.draft_seq)
            session.draft_seq = new_sequence(d, context_limit);
        size_t common = 0;
        while (common < session.draft_tokens.size() && common < context.size() &&
               session.draft_tokens[common] == context[common])
            ++common;
        if (common == context.size())
            --common; // re-evaluate the last token for its logits
        if (common < session.draft_tokens.size()) {
            if (!sequence_can_truncate_to(*session.draft_seq, static_cast<int64_t>(common)) ||
                !truncate_sequence(*session.draft_seq, static_cast<int64_t>(common))) {
                session.draft_seq = new_sequence(d, context_limit);
                common = 0;
            }
            session.draft_tokens.resize(common);
        }
        std::vector<float> logits;
        FOLIO_CHECK(eval_tokens(d, *session.draft_seq, context.data() + common,
                                static_cast<int64_t>(context.size() - common), false, threads,
                                logits));
        session.draft_tokens.assign(context.begin(), context.end());
        std::vector<int32_t> out;
        for (int i = 0; i < k; ++i) {
            const int32_t next = argmax(logits);
            out.push_back(next);
            if (i + 1 == k || sequence_length(*session.draft_seq) + 1 >= context_limit)
                break;
            FOLIO_CHECK(eval_tokens(d, *session.draft_seq, &next, 1, false, threads, logits));
            session.draft_tokens.push_back(next);
        }
        return out;
    }

    void record_decode(Job& job, Clock::time_point t0, size_t tokens) {
        const double secs = std::chrono::duration<double>(Clock::now() - t0).count();
        job.decode_seconds += secs;
        if (job.req.interactive)
            last_decode_step_s = secs / std::max<size_t>(1, tokens);
        std::lock_guard lk(m);
        const auto now = Clock::now();
        decode_window.push_back({now, secs / std::max<size_t>(1, tokens)});
        while (!decode_window.empty() &&
               now - decode_window.front().first > std::chrono::seconds(30))
            decode_window.pop_front();
    }

    void fail(Job& job, const Error& e) {
        if (job.req.callbacks.on_error)
            job.req.callbacks.on_error(e);
        finish(job, Stop::Error);
    }

    void finish(Job& job, Stop why) {
        if (job.finished)
            return;
        job.finished = true;
        if (job.out && why != Stop::StopString && why != Stop::Error) {
            const std::string rest = job.out->finish();
            if (!rest.empty() && job.req.callbacks.on_token)
                job.req.callbacks.on_token(rest, -1);
        }
        RequestStats& s = job.stats;
        s.stop_reason = kStopNames[static_cast<int>(why)];
        s.text = job.out ? job.out->text() : "";
        if (job.phase == Job::Phase::Decode) {
            const double secs =
                std::chrono::duration<double>(Clock::now() - job.decode_start).count();
            s.decode_tps = s.generated_tokens > 1 && secs > 0 ? (s.generated_tokens - 1) / secs : 0;
        }
        {
            std::lock_guard lk(m);
            st.last_prefill_tps = s.prefill_tps > 0 ? s.prefill_tps : st.last_prefill_tps;
            st.last_decode_tps = s.decode_tps > 0 ? s.decode_tps : st.last_decode_tps;
            st.last_ttft_ms = s.ttft_ms > 0 ? s.ttft_ms : st.last_ttft_ms;
            st.prefix_hit_tokens += s.reused_tokens;
            last_prefix_hit = s.reused_tokens;
            spec_drafted += s.spec_drafted;
            spec_accepted += s.spec_accepted;
        }
        if (job.req.callbacks.on_done)
            job.req.callbacks.on_done(s);
    }

    void refresh_stats_locked() {
        uint64_t kv = 0, scratch = 0;
        for (const auto& [sid, s] : sessions)
            if (s.seq) {
                kv += sequence_bytes(*s.seq);
                scratch += sequence_scratch_bytes(*s.seq);
            }
        st.kv_bytes = kv;
        st.scratch_bytes = scratch;
        st.sessions = static_cast<int>(sessions.size());
        st.queued_requests = static_cast<int>(jobs.size());
        double sum = 0;
        for (const auto& [t, spt] : decode_window)
            sum += spt;
        st.window_decode_tps = decode_window.empty() ? 0 : decode_window.size() / sum;
        st.spec_acceptance = spec_drafted > 0 ? double(spec_accepted) / spec_drafted : 0;
        int64_t used = 0;
        for (const auto& [sid, s] : sessions)
            used = std::max<int64_t>(used, static_cast<int64_t>(s.tokens.size()));
        st.context_used = used;
        if (model) {
            CacheStats cs;
            fill_cache_stats(*model, cs);
            const auto now = Clock::now();
            const double dt = std::chrono::duration<double>(now - cache_rate_time).count();
            if (dt >= 1.0) { // rates over about a second
                cs.to_disk_rate = (cs.bytes_to_disk - cache_rate_base.bytes_to_disk) / dt;
                cs.from_disk_rate = (cs.bytes_from_disk - cache_rate_base.bytes_from_disk) / dt;
                cache_rate_base = cs;
                cache_rate_time = now;
            } else {
                cs.to_disk_rate = st.cache.to_disk_rate;
                cs.from_disk_rate = st.cache.from_disk_rate;
            }
            cs.last_prefix_hit_tokens = last_prefix_hit;
            if (!cs.devices.empty()) {
                cs.devices[0].weights = static_cast<int64_t>(st.weights_bytes);
                cs.devices[0].scratch = static_cast<int64_t>(scratch);
            }
            st.cache = std::move(cs);
            st.block_map.clear();
            for (const auto& [sid, s] : sessions) {
                if (!s.seq)
                    continue;
                SessionBlockMap bm;
                bm.session = sid;
                sequence_block_map(*s.seq, bm);
                st.block_map.push_back(std::move(bm));
            }
        } else {
            st.cache = CacheStats{};
            st.block_map.clear();
        }
    }
    CacheStats cache_rate_base;
    Clock::time_point cache_rate_time = Clock::now();
    int64_t last_prefix_hit = 0;
};

Engine::Engine(EngineOptions options) : impl_(std::make_unique<Impl>(options)) {}
Engine::~Engine() = default;

void Engine::load(ModelSpec spec, std::function<void(Expected<ModelFacts>)> on_done,
                  std::function<void(double)> on_progress) {
    std::function<void(Expected<ModelFacts>)> superseded;
    std::string superseded_path;
    {
        std::lock_guard lk(impl_->m);
        if (impl_->load_request && impl_->load_done) {
            superseded = std::move(impl_->load_done); // a load not started yet: it never will
            superseded_path = impl_->load_request->gguf;
        }
        impl_->load_request = std::move(spec);
        impl_->load_done = std::move(on_done);
        impl_->load_progress = std::move(on_progress);
        impl_->st.state = "loading";
        for (auto& [id, job] : impl_->jobs)
            job->cancel = true;
    }
    impl_->cv.notify_all();
    if (superseded)
        superseded(make_error(ErrorCode::Cancelled,
                              superseded_path + ": loading was superseded by another load"));
}

Expected<ModelFacts> Engine::load_sync(ModelSpec spec) {
    std::mutex mu;
    std::condition_variable done;
    std::optional<Expected<ModelFacts>> result;
    load(std::move(spec), [&](Expected<ModelFacts> r) {
        std::lock_guard lk(mu);
        result.emplace(std::move(r));
        done.notify_all();
    });
    std::unique_lock lk(mu);
    done.wait(lk, [&] { return result.has_value(); });
    return std::move(*result);
}

void Engine::unload() {
    {
        std::lock_guard lk(impl_->m);
        impl_->unload_request = true;
    }
    impl_->cv.notify_all();
}

bool Engine::loaded() const {
    std::lock_guard lk(impl_->m);
    return impl_->model != nullptr;
}

SessionId Engine::create_session() {
    std::lock_guard lk(impl_->m);
    const SessionId id = impl_->next_session++;
    impl_->sessions[id];
    impl_->st.sessions = static_cast<int>(impl_->sessions.size());
    return id;
}

void Engine::close_session(SessionId id) {
    std::lock_guard lk(impl_->m);
    auto it = impl_->sessions.find(id);
    if (it == impl_->sessions.end())
        return;
    if (impl_->session_has_jobs(id)) {
        it->second.closing = true;
        for (auto& [rid, job] : impl_->jobs)
            if (job->session == id)
                job->cancel = true;
        impl_->cv.notify_all();
    } else {
        impl_->retire(it->second);
        impl_->sessions.erase(it);
        impl_->cv.notify_all();
    }
}

void Engine::reset_session(SessionId id) {
    std::lock_guard lk(impl_->m);
    auto it = impl_->sessions.find(id);
    if (it != impl_->sessions.end() && !impl_->session_has_jobs(id)) {
        impl_->drop_cache(it->second);
        impl_->cv.notify_all();
    }
}

Expected<SnapshotInfo> Engine::save_snapshot(SessionId session, const std::string& path) {
    return impl_->run_control<SnapshotInfo>([this, session, path]() -> Expected<SnapshotInfo> {
        return impl_->save_snapshot(session, path);
    });
}

Expected<SnapshotInfo> Engine::load_snapshot(SessionId session, const std::string& path) {
    return impl_->run_control<SnapshotInfo>([this, session, path]() -> Expected<SnapshotInfo> {
        return impl_->load_snapshot(session, path);
    });
}

RequestId Engine::submit(SessionId session, Request request) {
    auto job = std::make_shared<Impl::Job>();
    job->session = session;
    job->req = std::move(request);
    job->submitted = Clock::now();
    {
        std::lock_guard lk(impl_->m);
        if (!impl_->sessions.count(session) || impl_->sessions[session].closing) {
            job->id = 0;
        } else {
            job->id = impl_->next_request++;
            impl_->jobs[job->id] = job;
            impl_->order.push_back(job->id);
            impl_->st.queued_requests = static_cast<int>(impl_->jobs.size());
        }
    }
    if (job->id == 0) {
        if (job->req.callbacks.on_error)
            job->req.callbacks.on_error(make_error(ErrorCode::InvalidArgument,
                                                   "unknown session " + std::to_string(session)));
        return 0;
    }
    impl_->cv.notify_all();
    return job->id;
}

void Engine::cancel(RequestId id) {
    std::lock_guard lk(impl_->m);
    auto it = impl_->jobs.find(id);
    if (it != impl_->jobs.end())
        it->second->cancel = true;
    impl_->cv.notify_all();
}

void Engine::cancel_all() {
    std::lock_guard lk(impl_->m);
    for (auto& [id, job] : impl_->jobs)
        job->cancel = true;
    impl_->cv.notify_all();
}

void Engine::wait(RequestId id) {
    std::unique_lock lk(impl_->m);
    impl_->done_cv.wait(lk, [&] { return !impl_->jobs.count(id); });
}

EngineStats Engine::stats() const {
    std::lock_guard lk(impl_->m);
    return impl_->st;
}

} // namespace folio
