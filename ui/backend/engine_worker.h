#pragma once
// The Qt bridge to whatever answers the chat. EngineWorker lives in its own QThread, owns the
// embedded folio::Engine and one folio::ChatBackend (EngineChatBackend over that engine, or
// RemoteBackend for an OpenAI-compatible server), and talks to the GUI only through queued
// signals and slots; the GUI thread never waits on it. Requests go through the ChatBackend
// interface, so the chat does not know which backend answers. Backend callbacks (which run on
// the backend's threads) are turned into signals. A turn with data sources runs the read-only
// SQL tool through AgentTurnRunner (a thread of its own, so Stop still reaches it).
//
// Every request has an id the worker handed out (newRequestId), so the signals below name one
// request only. Questions of the chat go to the chat's engine session (submit); long jobs
// (summaries, table extraction, report sections) go to a session of their own (submitJob), so
// they neither wait behind nor evict the chat's cached prefix.

#include "backend/backend_config.h"
#include "backend/backend_status_q.h"
#include "backend/engine_stats_q.h"
#include "backend/engine_worker_types.h"
#include "backend/load_options.h"
#include "core/chat/generation_settings.h"
#include "core/chat/tool_call_record.h"
#include "core/pipeline/token_counter.h"
#include "doc_cache/document_prefix.h"
#include "folio/chat_backend.h"
#include "folio/engine.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

#include <atomic>
#include <memory>

class QTimer;

namespace folio::ui {

class AgentTurnRunner;
class DocumentReader;

class EngineWorker : public QObject {
    Q_OBJECT
public:
    EngineWorker();
    ~EngineWorker() override;

    // Answers come from `backend` from now on (what the previous one was answering is cancelled)
    // and `facts` are announced through modelLoaded. Used for remote servers, and by tests to put
    // a scripted backend in place. Call on the worker's thread.
    void setBackend(std::unique_ptr<ChatBackend> backend, const ModelFactsQ& facts);
    bool isRemote() const { return remote_; }
    // A request id no other request of this worker has had; any thread may ask.
    qint64 newRequestId() { return nextRequestId_.fetch_add(1, std::memory_order_relaxed); }

public Q_SLOTS:
    // Loads a GGUF model into the embedded engine and answers with it from now on.
    void loadModel(const folio::ui::LoadOptions& options);
    // Embedded: answers come from the engine again (its model, if one is loaded). Remote: checks
    // the server (GET /v1/models, off this thread) and then answers from it; modelLoaded or
    // loadFailed reports the outcome.
    void useBackend(const folio::ui::BackendConfig& config);
    // Submits a question of the chat; `requestId` (from newRequestId) names the signals below.
    // `dataSources` non-empty: the turn may call the read-only SQL tool over those files.
    void submit(qint64 requestId, const QList<folio::ui::ChatTurn>& turns,
                const folio::ui::GenerationSettings& settings, const QStringList& dataSources);
    // Submits a request of a long job on the jobs' own engine session (a server has no
    // sessions: there it is the same as submit).
    void submitJob(qint64 requestId, const QList<folio::ui::ChatTurn>& turns,
                   const folio::ui::GenerationSettings& settings);
    void cancel(qint64 requestId);
    // Polls the engine's (or the remote backend's) statistics every `intervalMs`.
    void startStatsTimer(int intervalMs);
    // Background reading (embedded engine only; DocumentReader): reads the chat's document
    // prefix into the KV cache, or loads its snapshot from the document-cache folder, while the
    // model stays loaded. A new prefix cancels the reading of the previous one; an empty prefix
    // just stops. Questions go first and reuse what was read.
    void readDocuments(const folio::ui::DocumentPrefix& prefix);
    // The document-cache folder (default: CacheIndex::defaultDir()).
    void setDocumentCacheDir(const QString& dir);

Q_SIGNALS:
    void modelLoaded(const folio::ui::ModelFactsQ& facts);
    // How prompts are counted from now on: exactly with the embedded engine's tokenizer after a
    // load, by estimate for a remote server (emitted right after modelLoaded).
    void counterChanged(const folio::ui::TokenCounter& counter);
    void loadFailed(const QString& message);
    void loadProgress(double fraction);
    void progress(qint64 requestId, qint64 done, qint64 total, double etaSeconds);
    // The prompt's images ready (encoded by the projector or cached) of `total`, before its
    // prefill.
    void imageProgress(qint64 requestId, int done, int total);
    void tokenArrived(qint64 requestId, const QString& text);
    // The text streamed so far for the answer was a tool call: start the answer afresh.
    void answerReset(qint64 requestId);
    void toolCallStarted(qint64 requestId, int index, const folio::ui::ToolCallRecord& call);
    void toolCallFinished(qint64 requestId, int index, const folio::ui::ToolCallRecord& call);
    void finished(qint64 requestId, const folio::ui::RequestStatsQ& stats);
    void failed(qint64 requestId, const QString& message);
    void statsUpdated(const folio::ui::EngineStatsQ& stats);
    // Background reading of the document prefix (see readDocuments): the document being read
    // (tokens read / to read, seconds left), a document that is in the cache (`tokens`: prompt
    // positions through it; -1 unknown), the whole prefix in the cache, and what the user should
    // know (a cache that could not be saved, a reading that failed).
    void readingProgress(const QString& fingerprint, qint64 done, qint64 total, double eta);
    void documentRead(const QString& fingerprint, qint64 tokens);
    void readingFinished(qint64 tokens, bool fromCache, double seconds);
    void readingMessage(const QString& message);
    // A reading stopped without warning (the process killed) goes on from its last checkpoint:
    // `done` of the `total` positions of the document's request are read already.
    void readingResumed(const QString& fingerprint, qint64 done, qint64 total);
    // Remote mode: what the server reported (instead of statsUpdated).
    void backendStatusUpdated(const folio::ui::BackendStatusQ& status);

private:
    void replaceBackend(std::unique_ptr<ChatBackend> backend, bool remote);
    void useEngine();
    void submitAgentTurn(qint64 requestId, Request request, const QStringList& dataSources);
    // The engine request of `turns`, as this backend takes images and speculation.
    Request requestFor(const QList<ChatTurn>& turns, const GenerationSettings& settings) const;
    void submitTo(ChatBackend& backend, qint64 requestId, Request request);
    ChatBackend& jobBackend();
    void requestEnded(qint64 requestId, bool counted);
    void publishStats();
    void questionStarted();
    void questionEnded();

    std::shared_ptr<Engine> engine_; // shared weakly with token counters
    std::unique_ptr<ChatBackend> backend_;
    // The jobs' session of the embedded engine (made at the first job; none when remote).
    std::unique_ptr<ChatBackend> jobBackend_;
    std::unique_ptr<AgentTurnRunner> agent_; // the tool-using turn in progress (or finished)
    qint64 agentRequest_ = 0;
    SessionId session_ = 0;
    std::unique_ptr<DocumentReader> reader_;
    int questions_ = 0; // questions running on session_ (background reading waits for them)
    QString kvType_;    // of the model being loaded (part of document-cache keys)
    bool remote_ = false;
    bool hasVision_ = false;    // the embedded engine has a vision projector
    bool remoteImages_ = false; // the server takes images (RemoteModel::accepts_images)
    bool speculation_ = true;
    quint64 probe_ = 0; // remote server checks started; older answers are ignored
    struct Running {
        ChatBackend* backend = nullptr;
        RequestId id = 0;
    };
    QHash<qint64, Running> requests_; // caller id -> backend and its id (this thread only)
    std::atomic<qint64> nextRequestId_{1};
    QTimer* statsTimer_ = nullptr;
};

// Registers the types above for queued connections (call once before connecting).
void registerEngineTypes();

} // namespace folio::ui
