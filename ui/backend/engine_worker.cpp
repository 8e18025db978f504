#include "backend/engine_worker.h"

#include "backend/agent_turn_runner.h"
#include "backend/document_reader.h"
#include "backend/remote_probe.h"
#include "backend/request_builder.h"
#include "backend/user_error.h"
#include "folio/engine_backend.h"
#include "folio/remote_backend.h"

#include <QFutureWatcher>
#include <QHash>
#include <QTimer>
#include <QtConcurrent>

#include <string>

namespace folio::ui {

namespace {

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

// UTF-8 from the engine may end inside a character only if the engine broke its promise;
// QString::fromUtf8 would substitute U+FFFD in that case, which is the right degradation.
QString qText(std::string_view s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

BackendStatusQ toBackendStatusQ(const ChatBackendStatus& s) {
    BackendStatusQ out;
    out.kind = q(s.kind);
    out.model = q(s.model);
    out.endpoint = q(s.endpoint);
    out.running = s.running;
    out.promptTokens = s.last.prompt_tokens;
    out.cachedTokens = s.last.reused_tokens;
    out.generatedTokens = s.last.generated_tokens;
    out.ttftMs = s.last.ttft_ms;
    out.decodeTps = s.last.decode_tps;
    out.stopReason = q(s.last.stop_reason);
    return out;
}

// Counts with the engine's tokenizer while the engine lives (the counter may outlive it in a
// task of the thread pool).
TokenCounter exactCounter(const std::shared_ptr<Engine>& engine, const QString& fingerprint,
                          bool vision) {
    std::weak_ptr<Engine> weak = engine;
    auto prompt = [weak, vision](const QList<ChatTurn>& turns) -> qint64 {
        std::shared_ptr<Engine> e = weak.lock();
        if (!e)
            return -1;
        Expected<int64_t> n = e->count_tokens(buildRequest(turns, {}, vision, false));
        return n ? *n : -1;
    };
    // Text inside a prompt: the tokens of the text alone, without what encoding adds to any
    // text (a BOS token).
    auto text = [weak](const QString& t) -> qint64 {
        std::shared_ptr<Engine> e = weak.lock();
        if (!e)
            return -1;
        Request r, one;
        r.prompt_text = t.toStdString();
        one.prompt_text.push_back(' ');
        Expected<int64_t> n = e->count_tokens(r);
        Expected<int64_t> base = e->count_tokens(one); // what encoding adds, plus one
        return n && base ? std::max<int64_t>(0, *n - (*base - 1)) : -1;
    };
    return TokenCounter(fingerprint, text, prompt);
}

} // namespace

RequestStatsQ toRequestStatsQ(const RequestStats& st) {
    RequestStatsQ out;
    out.promptTokens = st.prompt_tokens;
    out.reusedTokens = st.reused_tokens;
    out.promptReadTokens = st.prompt_read_tokens;
    out.generatedTokens = st.generated_tokens;
    out.ttftMs = st.ttft_ms;
    out.prefillTps = st.prefill_tps;
    out.decodeTps = st.decode_tps;
    out.specDrafted = st.spec_drafted;
    out.specAccepted = st.spec_accepted;
    out.stopReason = q(st.stop_reason);
    out.text = q(st.text);
    return out;
}

void registerEngineTypes() {
    qRegisterMetaType<ChatTurn>();
    qRegisterMetaType<QList<ChatTurn>>();
    qRegisterMetaType<GenerationSettings>();
    qRegisterMetaType<ModelFactsQ>();
    qRegisterMetaType<RequestStatsQ>();
    qRegisterMetaType<EngineStatsQ>();
    qRegisterMetaType<LoadOptions>();
    qRegisterMetaType<BackendConfig>();
    qRegisterMetaType<BackendStatusQ>();
    qRegisterMetaType<ToolCallRecord>();
    qRegisterMetaType<TokenCounter>();
    qRegisterMetaType<DocumentPrefix>();
}

// Inference runs a few nice levels below the GUI so painting and input stay smooth.
EngineWorker::EngineWorker() : engine_(std::make_shared<Engine>(EngineOptions{5})) {
    session_ = engine_->create_session();
    backend_ = std::make_unique<EngineChatBackend>(*engine_, std::string(), session_);
    reader_ = std::make_unique<DocumentReader>(engine_, session_);
    // A child, so moveToThread takes it along: the reader runs on the worker's thread (its
    // watchers and queued calls there). The destructor deletes it first (reader_.reset()),
    // which takes it out of the children before QObject would delete them.
    reader_->setParent(this);
    connect(reader_.get(), &DocumentReader::progress, this, &EngineWorker::readingProgress);
    connect(reader_.get(), &DocumentReader::documentRead, this, &EngineWorker::documentRead);
    connect(reader_.get(), &DocumentReader::finished, this, &EngineWorker::readingFinished);
    connect(reader_.get(), &DocumentReader::message, this, &EngineWorker::readingMessage);
    connect(reader_.get(), &DocumentReader::resumed, this, &EngineWorker::readingResumed);
}

// The tool turn and the backend go first (they call back into this object); the Engine then
// cancels its requests and joins its scheduler (unless a task of the thread pool still holds
// it: the reader's callbacks are unlinked when it goes).
EngineWorker::~EngineWorker() {
    agent_.reset();
    jobBackend_.reset();
    backend_.reset();
    reader_->cancel();
    engine_.reset();
    reader_.reset();
}

void EngineWorker::readDocuments(const DocumentPrefix& prefix) {
    if (remote_)
        return;
    reader_->read(prefix);
}

void EngineWorker::setDocumentCacheDir(const QString& dir) {
    reader_->setCacheDir(dir);
}

void EngineWorker::questionStarted() {
    if (questions_++ == 0)
        reader_->pause();
}

void EngineWorker::questionEnded() {
    if (questions_ > 0 && --questions_ == 0)
        reader_->resume();
}

void EngineWorker::startStatsTimer(int intervalMs) {
    if (!statsTimer_) {
        statsTimer_ = new QTimer(this);
        connect(statsTimer_, &QTimer::timeout, this, &EngineWorker::publishStats);
    }
    statsTimer_->start(intervalMs);
}

void EngineWorker::replaceBackend(std::unique_ptr<ChatBackend> backend, bool remote) {
    agent_.reset(); // cancels its round and joins
    if (backend_)
        backend_->cancel_all();
    jobBackend_.reset(); // closes the jobs' session (its requests were cancelled above)
    backend_.reset();    // a RemoteBackend waits for its calls to report "cancelled"
    requests_.clear();
    reader_->setModel({}, {}, {}); // reading needs the embedded engine's model
    backend_ = std::move(backend);
    remote_ = remote;
}

void EngineWorker::useEngine() {
    ++probe_; // a server check still running no longer matters
    if (remote_ || !backend_)
        replaceBackend(std::make_unique<EngineChatBackend>(*engine_, std::string(), session_),
                       false);
}

void EngineWorker::setBackend(std::unique_ptr<ChatBackend> backend, const ModelFactsQ& facts) {
    const bool remote = backend && backend->status().kind == "remote";
    replaceBackend(std::move(backend), remote);
    remoteImages_ = remote && facts.acceptsImages;
    Q_EMIT modelLoaded(facts);
    Q_EMIT counterChanged(TokenCounter()); // a server's tokenizer is not ours to run
}

void EngineWorker::useBackend(const BackendConfig& config) {
    if (!config.isRemote()) {
        useEngine();
        return;
    }
    const quint64 probe = ++probe_;
    auto* watcher = new QFutureWatcher<RemoteProbe>(this);
    connect(watcher, &QFutureWatcher<RemoteProbe>::finished, this, [this, watcher, probe, config] {
        const RemoteProbe r = watcher->result();
        watcher->deleteLater();
        if (probe != probe_)
            return; // another backend was chosen meanwhile
        if (!r.error.isEmpty()) {
            Q_EMIT loadFailed(r.error);
            return;
        }
        BackendConfig chosen = config;
        chosen.model = r.facts.name;
        setBackend(std::make_unique<RemoteBackend>(remoteOptions(chosen)), r.facts);
    });
    // GET /v1/models may take seconds (retries): never on this thread, which must stay free
    // for Stop.
    watcher->setFuture(QtConcurrent::run([config] { return probeRemote(config, true); }));
}

void EngineWorker::loadModel(const LoadOptions& options) {
    useEngine();
    const ModelSpec spec = toModelSpec(options);
    hasVision_ = !options.mmproj.isEmpty();
    speculation_ = options.speculation;
    kvType_ = QString::fromLatin1(kv_type_name(spec.cache.kv_type));
    reader_->setModel({}, {}, {});
    // The callback runs on the engine's thread: signals emitted there are queued to receivers.
    engine_->load(
        spec,
        [this](Expected<ModelFacts> r) {
            if (!r) {
                Q_EMIT loadFailed(userErrorText(r.error()));
                return;
            }
            ModelFactsQ f;
            f.path = q(r->path);
            f.name = q(r->name);
            f.architecture = q(r->architecture);
            f.chatTemplate = q(r->chat_template);
            f.contextLimit = r->context_limit;
            f.modelContext = r->model_context;
            f.parameters = static_cast<qint64>(r->parameters);
            f.activeParameters = static_cast<qint64>(r->active_parameters);
            f.fileBytes = static_cast<qint64>(r->file_bytes);
            f.threads = r->threads;
            f.fingerprint = q(r->fingerprint);
            f.projectorFingerprint = q(r->projector_fingerprint);
            f.placement = q(r->placement);
            f.projectorNote = q(r->projector_note);
            // Loaded with a projector, unless it was set aside (the worker's own flag follows,
            // on its thread, before anyone hears of the model).
            const bool vision = hasVision_ && f.projectorNote.isEmpty();
            f.acceptsImages = vision;
            if (!vision)
                QMetaObject::invokeMethod(
                    this, [this] { hasVision_ = false; }, Qt::QueuedConnection);
            QMetaObject::invokeMethod(
                reader_.get(),
                [reader = reader_.get(), f, kv = kvType_] {
                    reader->setModel(f.fingerprint, f.name, kv);
                },
                Qt::QueuedConnection);
            // The counter first: whoever reacts to modelLoaded (e.g. a question asked once the
            // model is ready) plans with the model's tokenizer.
            Q_EMIT counterChanged(exactCounter(engine_, f.fingerprint, vision));
            Q_EMIT modelLoaded(f);
        },
        [this](double fraction) { Q_EMIT loadProgress(fraction); });
}

Request EngineWorker::requestFor(const QList<ChatTurn>& turns, const GenerationSettings& s) const {
    // Images go as the embedded engine takes them: to a server that accepts them (RemoteBackend
    // sends them as base64 data URLs), to the engine when a vision projector is loaded.
    const bool images = remote_ ? remoteImages_ : hasVision_;
    return buildRequest(turns, s, images, speculation_ && !remote_);
}

void EngineWorker::submit(qint64 requestId, const QList<ChatTurn>& turns,
                          const GenerationSettings& s, const QStringList& dataSources) {
    Request r = requestFor(turns, s);
    if (!dataSources.isEmpty()) {
        submitAgentTurn(requestId, std::move(r), dataSources);
        return;
    }
    submitTo(*backend_, requestId, std::move(r));
}

void EngineWorker::submitJob(qint64 requestId, const QList<ChatTurn>& turns,
                             const GenerationSettings& s) {
    submitTo(jobBackend(), requestId, requestFor(turns, s));
}

ChatBackend& EngineWorker::jobBackend() {
    // A scripted or remote backend has no engine sessions: jobs share it.
    if (remote_ || !dynamic_cast<EngineChatBackend*>(backend_.get()))
        return *backend_;
    if (!jobBackend_)
        jobBackend_ = std::make_unique<EngineChatBackend>(*engine_);
    return *jobBackend_;
}

void EngineWorker::submitTo(ChatBackend& backend, qint64 requestId, Request r) {
    r.callbacks.on_prefill_progress = [this, requestId](int64_t done, int64_t total, double eta) {
        Q_EMIT progress(requestId, done, total, eta);
    };
    r.callbacks.on_image_progress = [this, requestId](int done, int total) {
        Q_EMIT imageProgress(requestId, done, total);
    };
    r.callbacks.on_token = [this, requestId](std::string_view text, int32_t) {
        if (!text.empty())
            Q_EMIT tokenArrived(requestId, qText(text));
    };
    r.callbacks.on_error = [this, requestId](const Error& e) {
        Q_EMIT failed(requestId, userErrorText(e));
    };
    const bool counted = !remote_; // background reading waits for it
    r.callbacks.on_done = [this, requestId, counted](const RequestStats& st) {
        Q_EMIT finished(requestId, toRequestStatsQ(st));
        QMetaObject::invokeMethod(
            this, [this, requestId, counted] { requestEnded(requestId, counted); },
            Qt::QueuedConnection);
    };
    if (counted)
        questionStarted();
    requests_.insert(requestId, Running{&backend, backend.submit(std::move(r))});
}

void EngineWorker::requestEnded(qint64 requestId, bool counted) {
    requests_.remove(requestId);
    if (counted)
        questionEnded();
}

void EngineWorker::submitAgentTurn(qint64 requestId, Request request,
                                   const QStringList& dataSources) {
    agent_.reset(); // a finished turn's thread is joined here
    AgentSinks sinks;
    sinks.token = [this, requestId](std::string_view text) {
        Q_EMIT tokenArrived(requestId, qText(text));
    };
    sinks.reset = [this, requestId] { Q_EMIT answerReset(requestId); };
    sinks.callStarted = [this, requestId](int index, const ToolCallRecord& call) {
        Q_EMIT toolCallStarted(requestId, index, call);
    };
    sinks.callFinished = [this, requestId](int index, const ToolCallRecord& call) {
        Q_EMIT toolCallFinished(requestId, index, call);
    };
    sinks.done = [this, requestId](const RequestStats& st, const QString& error) {
        if (!error.isEmpty())
            Q_EMIT failed(requestId, error);
        Q_EMIT finished(requestId, toRequestStatsQ(st));
        if (!remote_)
            QMetaObject::invokeMethod(this, &EngineWorker::questionEnded, Qt::QueuedConnection);
    };
    if (!remote_)
        questionStarted();
    agentRequest_ = requestId;
    agent_ = std::make_unique<AgentTurnRunner>(*backend_, std::move(request), dataSources,
                                               std::move(sinks));
    agent_->start();
}

void EngineWorker::cancel(qint64 requestId) {
    if (agent_ && requestId == agentRequest_) {
        agent_->cancel();
        return;
    }
    auto it = requests_.find(requestId);
    if (it != requests_.end())
        it->backend->cancel(it->id);
}

void EngineWorker::publishStats() {
    if (remote_)
        Q_EMIT backendStatusUpdated(toBackendStatusQ(backend_->status()));
    else
        Q_EMIT statsUpdated(toEngineStatsQ(engine_->stats()));
}

} // namespace folio::ui
