#include "engine/engine_worker.h"

#include <QHash>
#include <QTimer>

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

} // namespace

void registerEngineTypes() {
    qRegisterMetaType<ChatTurn>();
    qRegisterMetaType<QList<ChatTurn>>();
    qRegisterMetaType<GenerationSettings>();
    qRegisterMetaType<ModelFactsQ>();
    qRegisterMetaType<RequestStatsQ>();
    qRegisterMetaType<EngineStatsQ>();
    qRegisterMetaType<LoadOptions>();
}

// Inference runs a few nice levels below the GUI so painting and input stay smooth.
EngineWorker::EngineWorker() : engine_(std::make_unique<Engine>(EngineOptions{5})) {
    session_ = engine_->create_session();
}

EngineWorker::~EngineWorker() = default; // the Engine cancels and joins its scheduler

void EngineWorker::startStatsTimer(int intervalMs) {
    if (!statsTimer_) {
        statsTimer_ = new QTimer(this);
        connect(statsTimer_, &QTimer::timeout, this, &EngineWorker::publishStats);
    }
    statsTimer_->start(intervalMs);
}

void EngineWorker::loadModel(const LoadOptions& options) {
    const ModelSpec spec = toModelSpec(options);
    hasVision_ = !options.mmproj.isEmpty();
    speculation_ = options.speculation;
    // The callback runs on the engine's thread: signals emitted there are queued to receivers.
    engine_->load(
        spec,
        [this](Expected<ModelFacts> r) {
            if (!r) {
                Q_EMIT loadFailed(q(r.error().to_string()));
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
            Q_EMIT modelLoaded(f);
        },
        [this](double fraction) { Q_EMIT loadProgress(fraction); });
}

void EngineWorker::submit(qint64 requestId, const QList<ChatTurn>& turns,
                          const GenerationSettings& s) {
    Request r;
    for (const ChatTurn& t : turns) {
        Message m{t.role.toStdString(), t.content.toStdString(), {}, {}};
        if (hasVision_)
            for (const QString& image : t.images)
                m.images.push_back(ImageInput{image.toStdString(), 0, 0, {}});
        r.messages.push_back(std::move(m));
    }
    r.sampling.temperature = static_cast<float>(s.temperature);
    r.sampling.top_k = s.topK;
    r.sampling.top_p = static_cast<float>(s.topP);
    r.sampling.min_p = static_cast<float>(s.minP);
    r.sampling.repetition_penalty = static_cast<float>(s.repetitionPenalty);
    r.sampling.seed = s.seed;
    r.max_tokens = s.maxTokens;
    r.speculation =
        s.promptLookup && speculation_ ? SpeculationMode::PromptLookup : SpeculationMode::Off;
    r.callbacks.on_prefill_progress = [this, requestId](int64_t done, int64_t total, double eta) {
        Q_EMIT progress(requestId, done, total, eta);
    };
    r.callbacks.on_token = [this, requestId](std::string_view text, int32_t) {
        if (!text.empty())
            Q_EMIT tokenArrived(requestId, qText(text));
    };
    r.callbacks.on_error = [this, requestId](const Error& e) {
        Q_EMIT failed(requestId, q(e.to_string()));
    };
    r.callbacks.on_done = [this, requestId](const RequestStats& st) {
        RequestStatsQ out;
        out.promptTokens = st.prompt_tokens;
        out.reusedTokens = st.reused_tokens;
        out.generatedTokens = st.generated_tokens;
        out.ttftMs = st.ttft_ms;
        out.prefillTps = st.prefill_tps;
        out.decodeTps = st.decode_tps;
        out.specDrafted = st.spec_drafted;
        out.specAccepted = st.spec_accepted;
        out.stopReason = q(st.stop_reason);
        out.text = q(st.text);
        Q_EMIT finished(requestId, out);
    };
    requests_.insert(requestId, engine_->submit(session_, std::move(r)));
}

void EngineWorker::cancel(qint64 requestId) {
    auto it = requests_.find(requestId);
    if (it != requests_.end())
        engine_->cancel(it.value());
}

void EngineWorker::cancelAll() {
    engine_->cancel_all();
}

void EngineWorker::publishStats() {
    Q_EMIT statsUpdated(toEngineStatsQ(engine_->stats()));
}

} // namespace folio::ui
