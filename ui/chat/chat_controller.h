#pragma once
// The requests of the chat pane. A question the pane sends becomes one request to whatever
// answers (EngineWorker, through queued signals) with the prompt of its chat: the system prompt
// with the documents, the conversation so far and the question; what comes back for that
// request (prefill progress, text, tool calls, then the figures or the error) goes to the
// answer in that chat, by the chat's id, whichever chat the user is looking at meanwhile. The
// signals of any other request, such as the last pieces of one that was stopped, are dropped.
// One answer at a time: a question asked in another chat meanwhile, or before its documents
// are read, waits its turn (the chat says so, Stop takes it back) and goes in the order asked.
// With the model's tokenizer (EngineWorker::counterChanged) the prompt is planned with exact
// counts on the thread pool ("Preparing the prompt…"), so long documents do not block the
// window; with estimates it is planned at once.

#include "backend/engine_worker.h"
#include "chat/answer_progress.h"
#include "chat/conversation_prompt.h"
#include "core/documents/document.h"
#include "core/pipeline/page_selection.h"
#include "core/pipeline/token_counter.h"

#include "core/chat/chat_session.h"

#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QString>

#include <functional>
#include <memory>

namespace folio::ui {

class ChatPane;

class ChatController : public QObject {
    Q_OBJECT
public:
    // The documents a question of `chat` carries: those read, in the chat's order.
    using DocumentsOf = std::function<QList<Document>(const ChatSession& chat)>;
    // The titles of `chat`'s documents still being read: its question waits for them.
    using LoadingOf = std::function<QStringList(const ChatSession& chat)>;

    // Wires `pane` and `worker` (on its own thread) together.
    ChatController(ChatPane* pane, EngineWorker* worker, DocumentsOf documents,
                   QObject* parent = nullptr);
    void setLoadingDocuments(LoadingOf loading) { loading_ = std::move(loading); }

    // True from a question until its answer has finished (stopped or failed included).
    bool isAnswering() const { return request_.id != 0; }
    // The chat being answered; empty when none.
    const QString& answeringChat() const { return request_.chatId; }
    // Questions waiting their turn (each chat has at most one).
    int waitingCount() const { return int(queue_.size()); }
    // The prompt's characters per token, measured on the last answer (estimates what fits).
    double charsPerToken() const { return charsPerToken_; }
    // True while the prompt of the question sent last is being planned.
    bool isPreparing() const { return request_.id != 0 && request_.preparing; }
    // The counter prompts are planned with (the loaded model's tokenizer, else estimates).
    const TokenCounter& counter() const { return counter_; }
    // Per-page token counts, kept across questions (by document fingerprint and tokenizer).
    const std::shared_ptr<PageTokenCache>& pageTokenCache() const { return pageTokens_; }
    // The plan of the last question that went out (its pages, turns left out, exact count).
    const PromptPlan& lastPlan() const { return lastPlan_; }
    // What the loaded model takes (context, images). The worker's modelLoaded reaches every
    // receiver as its own queued call, posted one after another from the engine's thread, so
    // the window also hands the facts over itself before it says it is idle: a question asked
    // at idle (folio --ask) then never plans for the previous model.
    void setModelFacts(const ModelFactsQ& facts);
    // The current answer's progress (phase, time left): tests script its clock through it.
    AnswerProgress* answerProgress() const { return progress_; }

public Q_SLOTS:
    // Answers `question`, the question the pane has just put at the end of chat `chatId`
    // (a last user message is that question; the conversation before it goes along), now or
    // when its turn comes.
    void onSend(const QString& question, const QString& chatId);
    // Stops what chat `chatId` waits for: its answer (it ends with stop reason "cancelled"),
    // or its question waiting its turn (taken back; not sent).
    void stop(const QString& chatId);
    // Sends the first waiting question whose documents are read, when nothing is answered.
    void sendNextWaiting();
    // "Cite page K instead" (issue #46 §2): figure `figure` of answer `messageId`, found on
    // another page of its document, gets its citation changed to that page; the answer's figures
    // are then checked again. Nothing happens when there is nothing to fix.
    void fixCitation(const QString& chatId, qint64 messageId, int figure);

Q_SIGNALS:
    // To the worker (queued across threads).
    void submitRequested(qint64 requestId, const QList<folio::ui::ChatTurn>& turns,
                         const folio::ui::GenerationSettings& settings,
                         const QStringList& dataSources);
    void cancelRequested(qint64 requestId);
    // A question went out; its answer is being generated.
    void answerStarted();
    // A line for the status bar.
    void statusMessage(const QString& message, int timeoutMs);
    // Measured on a finished answer: prompt characters per prompt token.
    void charsPerTokenMeasured(double charsPerToken);
    // The answer is complete in the pane (or was stopped, or failed).
    void answerFinished(const folio::ui::RequestStatsQ& stats);
    // The figures of answer `messageId` in chat `chatId` are checked and on the message.
    void figuresChecked(const QString& chatId, qint64 messageId);

private:
    bool isCurrent(qint64 requestId) const { return requestId != 0 && requestId == request_.id; }
    void onProgress(qint64 requestId, qint64 done, qint64 total, double etaSeconds);
    void onImageProgress(qint64 requestId, int done, int total);
    void onToken(qint64 requestId, const QString& text);
    void onAnswerReset(qint64 requestId);
    void onToolCall(qint64 requestId, int index, const ToolCallRecord& call);
    void onFailed(qint64 requestId, const QString& message);
    void onFinished(qint64 requestId, const RequestStatsQ& stats);
    // The plan of request `requestId` is ready: send it, or say why it cannot go.
    void onPlanned(qint64 requestId, const PromptPlan& plan);
    // Plans and sends the question ending chat `chatId` now.
    void ask(const QString& question, const QString& chatId);
    // Ends the current request without the backend (stopped while planned, or not runnable).
    void finishLocally(const QString& stopReason, const QString& notice);
    // Checks the figures of chat `chatId`'s last answer on the thread pool (answer_figures.h);
    // they go onto that answer when done.
    void checkFigures(const QString& chatId);
    // The next waiting question goes once the current request's ending has been handled.
    void nextWhenIdle();

    // The request being answered (id 0: none).
    struct Pending {
        qint64 id = 0;
        QString chatId;     // the chat it answers
        bool agent = false; // it may call tools: its final text replaces what streamed
        qint64 promptChars = 0;
        QString error;          // the backend's error, shown once the answer has finished
        bool preparing = false; // its prompt is being planned (not sent yet)
        GenerationSettings settings;
        QStringList dataSources;
        QElapsedTimer sent;       // since the request went to the backend
        double imagesReadyMs = 0; // when its images were encoded (0: none, or not yet)
    };

    ChatPane* pane_;
    EngineWorker* worker_; // hands out request ids
    DocumentsOf documents_;
    LoadingOf loading_;
    Pending request_;
    // A question that waits its turn, in the order asked.
    struct Waiting {
        QString chatId;
        QString question;
        QString documents; // the titles it waits for; empty: it waits for another answer
    };
    QList<Waiting> queue_;
    qint64 contextLimit_ = 0; // of the model that answers; 0: not known
    double charsPerToken_;
    TokenCounter counter_;
    std::shared_ptr<PageTokenCache> pageTokens_ = std::make_shared<PageTokenCache>();
    bool readsScannedPages_ = false; // the embedded engine has a vision projector
    bool acceptsImages_ = false;     // the model that answers sees images
    QString pageImageDir_;           // where scanned pages are rendered (page_images.h)
    PromptPlan lastPlan_;
    // The answer's phase and prompt-reading ETA for the gauge (re-evaluated each second).
    AnswerProgress* progress_;
};

} // namespace folio::ui
