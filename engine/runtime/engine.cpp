// Engine: the scheduler thread, sessions and requests (see folio/engine.h). The scheduler picks
// the next step and keeps the engine's state consistent around it; the work itself belongs to
// objects with their own state: the model slot (model_slot.h), a request's steps
// (request_job.h) with prompt assembly, the session's cache (session_cache.h, prefix reuse) and
// drafter (speculation.h), the image-embedding cache and the statistics.
#include "folio/engine.h"

#include "runtime/decoder_adapter.h"
#include "runtime/engine_statistics.h"
#include "runtime/image_embedding_cache.h"
#include "runtime/model_slot.h"
#include "runtime/prompt_assembly.h"
#include "runtime/request_job.h"
#include "runtime/sequence_snapshot.h"
#include "runtime/session_cache.h"
#include "runtime/speculation.h"
#include "runtime/thread_park.h"

#include <algorithm>
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

double seconds_since(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

} // namespace

struct Engine::Impl {
    using Job = RequestJob;

    struct Session {
        SessionCache cache; // the model's sequence and the keys of what it holds
        Drafter drafter;    // the draft model's view of the same text
        bool closing = false;
    };

    // --- shared state (guarded by m) ---
    mutable std::mutex m;
    std::condition_variable cv;      // wakes the worker
    std::condition_variable done_cv; // wakes wait()
    bool quit = false;
    ModelSlot slot;
    // A load or unload asked for, handled by the worker between steps.
    std::optional<ModelSpec> load_request;
    std::function<void(Expected<ModelFacts>)> load_done;
    std::function<void(double)> load_progress;
    bool unload_request = false;
    std::map<SessionId, Session> sessions;
    SessionId next_session = 1;
    std::map<RequestId, std::shared_ptr<Job>> jobs;
    std::deque<RequestId> order;
    RequestId next_request = 1;
    // Sequences of reset or closed sessions: their blocks go back to the pool on the worker,
    // which owns the pool (callers' threads never touch it).
    std::vector<std::unique_ptr<DecoderSequence>> retired;
    // Work run on the worker between steps (snapshots), in order.
    std::deque<std::function<void()>> control;

    // --- the worker's own (changed under m only where marked) ---
    ImageEmbeddingCache images; // reset under m by loads
    PrefillPacing pacing;
    EngineStatistics statistics; // locks itself

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
                job->cancel();
        }
        cv.notify_all();
        worker.join();
    }

    // ---------------------------------------------------------------- worker
    void run() {
        bool parked = true; // no kernel team since the last park_kernel_threads()
        for (;;) {
            std::unique_lock lk(m);
            const auto has_work = [&] {
                return quit || load_request || unload_request || !control.empty() ||
                       !retired.empty() || runnable() != nullptr;
            };
            if (!parked && !has_work()) {
                // Nothing left to do: the OpenMP workers would otherwise spin for milliseconds
                // before they sleep (runtime/thread_park.h).
                lk.unlock();
                park_kernel_threads();
                parked = true;
                continue;
            }
            cv.wait(lk, has_work);
            parked = false;
            retired.clear();
            if (quit)
                break;
            if (!control.empty()) {
                auto task = std::move(control.front());
                control.pop_front();
                lk.unlock();
                task();
                lk.lock();
                refresh_statistics();
                continue;
            }
            if (load_request || unload_request) {
                handle_load(lk);
                continue;
            }
            std::shared_ptr<Job> job = runnable();
            if (!job) // woken only to free retired sequences
                continue;
            statistics.set_state(job->phase() == Job::Phase::Decode ? "decode" : "prefill");
            Session* session = &sessions[job->session()];
            const bool interleave = interactive_decode_waiting(job.get());
            lk.unlock();
            step(*job, *session, interleave);
            lk.lock();
            check_read_faults(lk);
            job->note_step_end();
            if (job->finished()) {
                jobs.erase(job->id());
                order.erase(std::remove(order.begin(), order.end(), job->id()), order.end());
                auto it = sessions.find(job->session());
                if (it != sessions.end() && it->second.closing && !session_has_jobs(job->session()))
                    sessions.erase(it);
                done_cv.notify_all();
            }
            refresh_statistics();
            if (jobs.empty())
                statistics.set_state("idle");
        }
        // Finish whatever is left as cancelled (callbacks still run).
        std::vector<std::shared_ptr<Job>> left;
        {
            std::lock_guard lk(m);
            for (auto& [id, job] : jobs)
                left.push_back(job);
        }
        for (auto& job : left)
            job->finish(StopReason::Cancelled);
        std::lock_guard lk(m);
        forget_jobs(left);
    }

    void retire(std::unique_ptr<DecoderSequence> seq) {
        if (seq)
            retired.push_back(std::move(seq));
    }

    // Forgets what the session has cached (the next request computes from scratch). Under m.
    void drop_cache(Session& s) {
        retire(s.cache.release());
        retire(s.drafter.release());
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

    // Control tasks: they run on the worker, which alone changes the slot, so its model stays
    // while the lock is released.
    Expected<SnapshotInfo> save_snapshot(SessionId id, const std::string& path) {
        const auto t0 = Clock::now();
        std::unique_lock lk(m);
        if (!slot.loaded())
            return make_error(ErrorCode::InvalidArgument, "no model is loaded");
        auto it = sessions.find(id);
        if (it == sessions.end() || !it->second.cache.has_sequence() ||
            it->second.cache.keys().empty())
            return make_error(ErrorCode::InvalidArgument,
                              "session " + std::to_string(id) + " holds no cached tokens");
        // Borrow the sequence (a close_session meanwhile then cannot free it under us).
        const uint64_t generation = it->second.cache.generation();
        std::unique_ptr<DecoderSequence> seq = it->second.cache.lend();
        const std::vector<uint64_t> keys = it->second.cache.keys();
        lk.unlock();
        auto saved = save_sequence_snapshot(slot.model(), *seq, keys.data(), path);
        lk.lock();
        auto back = sessions.find(id);
        if (back != sessions.end())
            seq = back->second.cache.give_back(std::move(seq), generation);
        retire(std::move(seq));
        if (!saved)
            return saved.error();
        return SnapshotInfo{saved->bytes, saved->tokens, seconds_since(t0)};
    }

    Expected<SnapshotInfo> load_snapshot(SessionId id, const std::string& path) {
        const auto t0 = Clock::now();
        std::unique_lock lk(m);
        if (!slot.loaded())
            return make_error(ErrorCode::InvalidArgument, "no model is loaded");
        auto it = sessions.find(id);
        if (it == sessions.end())
            return make_error(ErrorCode::InvalidArgument, "unknown session " + std::to_string(id));
        if (session_has_jobs(id))
            return make_error(ErrorCode::InvalidArgument,
                              "session " + std::to_string(id) + " is busy");
        const DecoderHandle& h = slot.model();
        lk.unlock();
        auto seq = new_sequence(h, slot.context_limit());
        std::vector<uint64_t> keys;
        auto loaded = load_sequence_snapshot(h, *seq, path, keys);
        lk.lock();
        it = sessions.find(id);
        if (!loaded || it == sessions.end()) {
            retire(std::move(seq));
            if (!loaded)
                return loaded.error();
            return make_error(ErrorCode::InvalidArgument, "the session was closed");
        }
        Session& session = it->second;
        retire(session.drafter.release());
        retire(session.cache.replace(h, std::move(seq), std::move(keys)));
        return SnapshotInfo{loaded->bytes, loaded->tokens, seconds_since(t0)};
    }

    bool session_has_jobs(SessionId s) const {
        for (const auto& [id, job] : jobs)
            if (job->session() == s)
                return true;
        return false;
    }

    // The job to step next: one active job per session (the oldest), interactive decode first,
    // then interactive prefill, then background decode, then background prefill; among equals
    // the one that waited longest.
    std::shared_ptr<Job> runnable() const {
        if (!slot.loaded())
            return order.empty() ? nullptr : jobs.at(order.front()); // fails them with an error
        std::map<SessionId, std::shared_ptr<Job>> active;
        for (RequestId id : order) {
            const auto& job = jobs.at(id);
            if (!active.count(job->session()))
                active[job->session()] = job;
        }
        std::shared_ptr<Job> best;
        int best_class = 99;
        for (const auto& [sid, job] : active) {
            int cls = (job->interactive() ? 0 : 2) + (job->phase() == Job::Phase::Decode ? 0 : 1);
            if (job->cancelled())
                cls = -1; // finish cancellations at once
            if (cls < best_class || (cls == best_class && job->last_step() < best->last_step())) {
                best = job;
                best_class = cls;
            }
        }
        return best;
    }

    // SIGBUS on the model's or the offload file's mapping became zero pages
    // (core/fault_guard.h): whatever was computed since the last check is wrong. Every running
    // request fails with the reason and the sessions' caches are dropped (they were computed
    // from, or read back as, zeros). A truncated model stays refused until a load.
    void check_read_faults(std::unique_lock<std::mutex>& lk) {
        std::optional<Error> e = slot.take_fault();
        if (!e)
            return;
        std::vector<std::shared_ptr<Job>> failed;
        for (auto& [id, job] : jobs)
            failed.push_back(job);
        for (auto it = sessions.begin(); it != sessions.end();) {
            drop_cache(it->second);
            it = it->second.closing ? sessions.erase(it) : std::next(it);
        }
        if (slot.loaded())
            drop_prefix_cache(slot.model());
        lk.unlock();
        for (auto& job : failed) {
            job->cancel();
            if (!job->finished())
                job->fail(*e);
        }
        lk.lock();
        forget_jobs(failed);
    }

    // Removes jobs whose callbacks have run (wait() returns once a job is gone, so a job leaves
    // the map only after its on_done). Under the lock.
    void forget_jobs(const std::vector<std::shared_ptr<Job>>& done) {
        for (const auto& job : done) {
            jobs.erase(job->id());
            order.erase(std::remove(order.begin(), order.end(), job->id()), order.end());
        }
        done_cv.notify_all();
    }

    bool interactive_decode_waiting(const Job* except) const {
        for (const auto& [id, job] : jobs)
            if (job.get() != except && job->interactive() && job->phase() == Job::Phase::Decode)
                return true;
        return false;
    }

    // A load or unload: every request is cancelled and every cache dropped (they belong to the
    // old model); the files are loaded without the lock, so stats() and new sessions go on.
    void handle_load(std::unique_lock<std::mutex>& lk) {
        std::optional<ModelSpec> spec = std::move(load_request);
        load_request.reset();
        auto done = std::move(load_done);
        load_done = nullptr;
        auto progress = std::move(load_progress);
        load_progress = nullptr;
        unload_request = false;
        std::vector<std::shared_ptr<Job>> cancelled;
        for (auto& [id, job] : jobs)
            cancelled.push_back(job);
        for (auto& [sid, s] : sessions) { // freed here, before the model they belong to
            s.cache.release();
            s.drafter.release();
        }
        slot.clear();
        images.reset();
        statistics.reset(static_cast<int>(sessions.size()), spec ? "loading" : "idle");
        lk.unlock();
        for (auto& job : cancelled) {
            job->cancel();
            job->finish(StopReason::Cancelled);
        }
        lk.lock();
        forget_jobs(cancelled);
        if (!spec)
            return;
        lk.unlock();
        auto superseded = [this] {
            std::lock_guard g(m);
            return quit || load_request.has_value() || unload_request;
        };
        Expected<LoadedModel> loaded = load_model_files(*spec, progress, superseded);
        lk.lock();
        statistics.set_state("idle");
        Expected<ModelFacts> result = make_error(ErrorCode::Internal, "not loaded");
        if (!loaded) {
            result = loaded.error();
        } else {
            images.reset(std::move(loaded->projector),
                         {spec->image_cache_dir, loaded->facts.projector_fingerprint,
                          spec->image_cache_budget});
            slot.install(std::move(*loaded));
            statistics.model_installed(slot.facts());
            result = slot.facts();
        }
        // The cache's devices and budget as soon as the model is ready, not at the first step
        // (issue #48 §11: the Devices pane said "no model loaded" until the first question).
        refresh_statistics();
        lk.unlock();
        if (done)
            done(std::move(result));
        lk.lock();
    }

    // ---------------------------------------------------------------- one step of a job
    void step(Job& job, Session& session, bool interleave) {
        StepContext ctx{slot, images, pacing, interleave};
        try {
            if (auto failure = job.step(ctx, session.cache, session.drafter)) {
                if (failure->cache_damaged)
                    fail_step(job, session, failure->error);
                else
                    job.fail(failure->error);
            }
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
        job.fail(e);
    }

    // Under m.
    void refresh_statistics() {
        std::vector<SessionUsage> usage;
        usage.reserve(sessions.size());
        for (const auto& [sid, s] : sessions)
            usage.push_back({sid, &s.cache});
        statistics.refresh(slot.loaded() ? &slot.model() : nullptr, usage,
                           static_cast<int>(jobs.size()));
        if (slot.loaded())
            statistics.record_threads(slot.cpu_share().current(), slot.cpu_share().configured(),
                                      slot.cpu_share().others_cpus());
    }
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
        impl_->statistics.set_state("loading");
        for (auto& [id, job] : impl_->jobs)
            job->cancel();
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
    return impl_->slot.loaded();
}

SessionId Engine::create_session() {
    std::lock_guard lk(impl_->m);
    const SessionId id = impl_->next_session++;
    impl_->sessions[id];
    impl_->statistics.set_sessions(static_cast<int>(impl_->sessions.size()));
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
            if (job->session() == id)
                job->cancel();
    } else {
        impl_->drop_cache(it->second);
        impl_->sessions.erase(it);
    }
    impl_->cv.notify_all();
}

void Engine::reset_session(SessionId id) {
    std::lock_guard lk(impl_->m);
    auto it = impl_->sessions.find(id);
    if (it != impl_->sessions.end() && !impl_->session_has_jobs(id)) {
        impl_->drop_cache(it->second);
        impl_->cv.notify_all();
    }
}

Expected<int64_t> Engine::count_tokens(const Request& request) const {
    std::shared_ptr<const DecoderHandle> model;
    std::shared_ptr<const vision::VisionModel> projector;
    {
        std::lock_guard lk(impl_->m);
        if (!impl_->slot.loaded())
            return make_error(ErrorCode::InvalidArgument, "no model is loaded");
        model = impl_->slot.shared_model();
        projector = impl_->images.projector();
    }
    // The tokenizer and template are immutable once loaded; the shared pointers keep them alive
    // across a concurrent load.
    return count_prompt_positions(request, *model, projector.get());
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
    std::shared_ptr<RequestJob> job;
    {
        std::lock_guard lk(impl_->m);
        auto it = impl_->sessions.find(session);
        if (it != impl_->sessions.end() && !it->second.closing) {
            job = std::make_shared<RequestJob>(impl_->next_request++, session, std::move(request),
                                               impl_->statistics);
            impl_->jobs[job->id()] = job;
            impl_->order.push_back(job->id());
            impl_->statistics.set_queued_requests(static_cast<int>(impl_->jobs.size()));
        }
    }
    if (!job) { // `request` was not moved from
        if (request.callbacks.on_error)
            request.callbacks.on_error(make_error(ErrorCode::InvalidArgument,
                                                  "unknown session " + std::to_string(session)));
        return 0;
    }
    impl_->cv.notify_all();
    return job->id();
}

void Engine::cancel(RequestId id) {
    std::lock_guard lk(impl_->m);
    auto it = impl_->jobs.find(id);
    if (it != impl_->jobs.end())
        it->second->cancel();
    impl_->cv.notify_all();
}

void Engine::cancel_all() {
    std::lock_guard lk(impl_->m);
    for (auto& [id, job] : impl_->jobs)
        job->cancel();
    impl_->cv.notify_all();
}

void Engine::wait(RequestId id) {
    std::unique_lock lk(impl_->m);
    impl_->done_cv.wait(lk, [&] { return !impl_->jobs.count(id); });
}

EngineStats Engine::stats() const {
    return impl_->statistics.snapshot();
}

} // namespace folio
