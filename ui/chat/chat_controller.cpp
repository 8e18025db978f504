#include "chat/chat_controller.h"

#include "chat/chat_pane.h"
#include "chat/context_fit.h"
#include "chat/conversation_prompt.h"

#include <utility>

namespace folio::ui {

ChatController::ChatController(ChatPane* pane, EngineWorker* worker,
                               std::function<QList<Document>()> documents, QObject* parent)
    : QObject(parent), pane_(pane), documents_(std::move(documents)),
      charsPerToken_(kDefaultCharsPerToken) {
    connect(pane_, &ChatPane::sendRequested, this, &ChatController::onSend);
    connect(pane_, &ChatPane::stopRequested, this, &ChatController::stop);
    connect(this, &ChatController::submitRequested, worker, &EngineWorker::submit);
    connect(this, &ChatController::cancelRequested, worker, &EngineWorker::cancel);
    connect(worker, &EngineWorker::modelLoaded, this,
            [this](const ModelFactsQ& facts) { contextLimit_ = facts.contextLimit; });
    connect(worker, &EngineWorker::progress, this, &ChatController::onProgress);
    connect(worker, &EngineWorker::tokenArrived, this, &ChatController::onToken);
    connect(worker, &EngineWorker::answerReset, this, &ChatController::onAnswerReset);
    connect(worker, &EngineWorker::toolCallStarted, this, &ChatController::onToolCall);
    connect(worker, &EngineWorker::toolCallFinished, this, &ChatController::onToolCall);
    connect(worker, &EngineWorker::failed, this, &ChatController::onFailed);
    connect(worker, &EngineWorker::finished, this, &ChatController::onFinished);
}

void ChatController::onSend(const QString& question) {
    const ChatSession& chat = pane_->currentChat();
    const PromptPlan plan =
        planPrompt(chat, question, documents_ ? documents_() : QList<Document>(), contextLimit_,
                   charsPerToken_);
    if (plan.droppedTurns > 0)
        Q_EMIT statusMessage(tr("Left the %1 oldest messages out of the prompt to fit the context")
                                 .arg(plan.droppedTurns),
                             8000);
    const QStringList sources = chat.activeDataSources();
    request_ = Pending{nextRequest_++, !sources.isEmpty(), plan.characters, QString()};
    pane_->appendMessage(ChatMessage::Role::Assistant, QString());
    pane_->setGenerating(true);
    Q_EMIT answerStarted();
    Q_EMIT submitRequested(request_.id, plan.turns, chat.settings, sources);
}

void ChatController::stop() {
    if (isAnswering())
        Q_EMIT cancelRequested(request_.id);
}

void ChatController::onProgress(qint64 requestId, qint64 done, qint64 total, double etaSeconds) {
    if (isCurrent(requestId))
        pane_->setPrefillProgress(done, total, etaSeconds);
}

void ChatController::onToken(qint64 requestId, const QString& text) {
    if (isCurrent(requestId))
        pane_->appendToLast(text);
}

void ChatController::onAnswerReset(qint64 requestId) {
    if (isCurrent(requestId))
        pane_->resetLastText();
}

void ChatController::onToolCall(qint64 requestId, int index, const ToolCallRecord& call) {
    if (isCurrent(requestId))
        pane_->setToolCall(index, call);
}

void ChatController::onFailed(qint64 requestId, const QString& message) {
    if (isCurrent(requestId))
        request_.error = message; // shown under the answer once it has finished
}

void ChatController::onFinished(qint64 requestId, const RequestStatsQ& st) {
    if (!isCurrent(requestId))
        return;
    const Pending done = std::exchange(request_, Pending{});
    if (st.promptTokens > 0 && done.promptChars > 0) {
        charsPerToken_ = double(done.promptChars) / double(st.promptTokens);
        Q_EMIT charsPerTokenMeasured(charsPerToken_);
    }
    if (done.agent)
        pane_->setLastText(st.text); // the final answer, without the calls' text
    QString error = done.error;
    const bool partial = !pane_->messages().isEmpty() && !pane_->messages().last().text.isEmpty();
    if (!error.isEmpty() && partial) {
        // A dropped stream: what arrived stays, marked as cut off.
        pane_->setLastInterrupted(error);
        error.clear();
    }
    MessageStats ms;
    ms.promptTokens = st.promptTokens;
    ms.reusedTokens = st.reusedTokens;
    ms.generatedTokens = st.generatedTokens;
    ms.ttftMs = st.ttftMs;
    ms.prefillTps = st.prefillTps;
    ms.decodeTps = st.decodeTps;
    ms.stopReason = st.stopReason;
    pane_->setLastStats(ms);
    pane_->setGenerating(false);
    if (!error.isEmpty())
        pane_->appendMessage(ChatMessage::Role::Notice, error);
    pane_->setContextUsage(st.promptTokens + st.generatedTokens, contextLimit_);
    Q_EMIT answerFinished(st);
}

} // namespace folio::ui
