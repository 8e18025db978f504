#include "chat/chat_controller.h"

#include "core/chat/chat_edits.h"

#include "chat/chat_pane.h"
#include "chat/context_fit.h"
#include "core/pipeline/page_images.h"

#include <QDebug>
#include <QFutureWatcher>
#include <QRandomGenerator>
#include <QtConcurrent>

#include <utility>

namespace folio::ui {

ChatController::ChatController(ChatPane* pane, EngineWorker* worker,
                               std::function<QList<Document>()> documents, QObject* parent)
    : QObject(parent), pane_(pane), worker_(worker), documents_(std::move(documents)),
      charsPerToken_(kDefaultCharsPerToken), pageImageDir_(defaultPageImageDir()) {
    connect(pane_, &ChatPane::sendRequested, this, &ChatController::onSend);
    connect(pane_, &ChatPane::stopRequested, this, &ChatController::stop);
    connect(this, &ChatController::submitRequested, worker, &EngineWorker::submit);
    connect(this, &ChatController::cancelRequested, worker, &EngineWorker::cancel);
    connect(worker, &EngineWorker::modelLoaded, this, &ChatController::setModelFacts);
    connect(worker, &EngineWorker::counterChanged, this,
            [this](const TokenCounter& counter) { counter_ = counter; });
    connect(worker, &EngineWorker::progress, this, &ChatController::onProgress);
    connect(worker, &EngineWorker::imageProgress, this, &ChatController::onImageProgress);
    connect(worker, &EngineWorker::tokenArrived, this, &ChatController::onToken);
    connect(worker, &EngineWorker::answerReset, this, &ChatController::onAnswerReset);
    connect(worker, &EngineWorker::toolCallStarted, this, &ChatController::onToolCall);
    connect(worker, &EngineWorker::toolCallFinished, this, &ChatController::onToolCall);
    connect(worker, &EngineWorker::failed, this, &ChatController::onFailed);
    connect(worker, &EngineWorker::finished, this, &ChatController::onFinished);
}

void ChatController::setModelFacts(const ModelFactsQ& facts) {
    contextLimit_ = facts.contextLimit;
    // The embedded engine with its projector reads scanned pages as images; a server gets
    // their (empty) text.
    readsScannedPages_ = facts.acceptsImages && !facts.remote;
    acceptsImages_ = facts.acceptsImages;
}

void ChatController::onSend(const QString& question) {
    if (isAnswering()) {
        Q_EMIT statusMessage(tr("An answer is being prepared: wait for it or stop it, then ask "
                                "again."),
                             5000);
        return;
    }
    const ChatSession& chat = pane_->currentChat();
    PromptInput input;
    input.chat = chat;
    input.question = question;
    input.documents = documents_ ? documents_() : QList<Document>();
    input.contextLimit = contextLimit_;
    input.pinnedPages = pinned_;
    input.readScannedPages = readsScannedPages_;
    input.acceptsImages = acceptsImages_;
    input.scannedPagesOff = scannedOff_;
    input.pageImageDir = pageImageDir_;
    request_ = Pending{};
    request_.id = worker_->newRequestId();
    request_.dataSources = chat.activeDataSources();
    request_.agent = !request_.dataSources.isEmpty();
    request_.settings = chat.settings;
    // Seed 0 is "not fixed": another try at a question answered before samples afresh (the
    // same seed would give the same answer again).
    if (request_.settings.seed == 0 && isRegeneration(chat))
        request_.settings.seed = QRandomGenerator::global()->generate64() | 1;
    request_.preparing = true;
    pane_->appendMessage(ChatMessage::Role::Assistant, QString());
    pane_->setGenerating(true);
    Q_EMIT answerStarted();
    const qint64 id = request_.id;
    if (!counter_.exact() && !input.readScannedPages) { // quick: no thread needed
        onPlanned(id, planPrompt(input, counter_, *pageTokens_));
        return;
    }
    // Exact counts of long documents take a while (the first question counts every page).
    pane_->setPreparingPrompt();
    auto* watcher = new QFutureWatcher<PromptPlan>(this);
    connect(watcher, &QFutureWatcher<PromptPlan>::finished, this, [this, watcher, id] {
        watcher->deleteLater();
        onPlanned(id, watcher->result());
    });
    const TokenCounter counter = counter_;
    const std::shared_ptr<PageTokenCache> cache = pageTokens_;
    watcher->setFuture(
        QtConcurrent::run([input, counter, cache] { return planPrompt(input, counter, *cache); }));
}

void ChatController::onPlanned(qint64 requestId, const PromptPlan& plan) {
    if (!isCurrent(requestId))
        return; // stopped while it was planned
    request_.preparing = false;
    lastPlan_ = plan;
    if (!plan.error.isEmpty()) {
        finishLocally(QStringLiteral("error"), plan.error);
        return;
    }
    pane_->setQuestionContextNote(plan.contextNote, int(plan.droppedMessages.size()));
    request_.promptChars = plan.characters;
    Q_EMIT submitRequested(request_.id, plan.turns, request_.settings, request_.dataSources);
}

void ChatController::finishLocally(const QString& stopReason, const QString& notice) {
    request_ = Pending{};
    MessageStats ms;
    ms.stopReason = stopReason;
    // Why the question could not go stays on its answer (no figures: nothing was run).
    if (!notice.isEmpty()) {
        qWarning().noquote() << "folio: the question was not sent:" << notice;
        pane_->setLastInterrupted(notice);
    }
    pane_->setLastStats(ms);
    pane_->setGenerating(false);
    RequestStatsQ st;
    st.stopReason = stopReason;
    Q_EMIT answerFinished(st);
}

void ChatController::stop() {
    if (isPreparing())
        finishLocally(QStringLiteral("cancelled"), QString());
    else if (isAnswering())
        Q_EMIT cancelRequested(request_.id);
}

void ChatController::onProgress(qint64 requestId, qint64 done, qint64 total, double etaSeconds) {
    if (isCurrent(requestId))
        pane_->setPrefillProgress(done, total, etaSeconds);
}

void ChatController::onImageProgress(qint64 requestId, int done, int total) {
    if (isCurrent(requestId))
        pane_->setImageProgress(done, total);
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
    // The error stays on the answer: under what arrived (cut off), or in place of an answer
    // that never came (the question stays; "regenerate" asks it again). It is logged too.
    if (!done.error.isEmpty()) {
        qWarning().noquote() << "folio: the answer failed:" << done.error;
        pane_->setLastInterrupted(done.error);
    }
    MessageStats ms;
    ms.stopReason = st.stopReason;
    // A failed request that gave no answer keeps no figures (they would be zeros, not facts).
    const bool noAnswer = !done.error.isEmpty() && !pane_->messages().isEmpty() &&
                          pane_->messages().last().text.isEmpty() &&
                          pane_->messages().last().toolCalls.isEmpty();
    if (!noAnswer) {
        ms.promptTokens = st.promptTokens;
        ms.reusedTokens = st.reusedTokens;
        ms.generatedTokens = st.generatedTokens;
        ms.ttftMs = st.ttftMs;
        ms.prefillTps = st.prefillTps;
        ms.decodeTps = st.decodeTps;
    }
    pane_->setLastStats(ms);
    pane_->setGenerating(false);
    // What the context holds now: after a cancel during prefill only the chunks read.
    const qint64 held =
        st.promptReadTokens > 0 ? qMin(st.promptReadTokens, st.promptTokens) : st.promptTokens;
    pane_->setContextUsage(held + st.generatedTokens, contextLimit_);
    Q_EMIT answerFinished(st);
}

} // namespace folio::ui
