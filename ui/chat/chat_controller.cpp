#include "chat/chat_controller.h"

#include "core/chat/answer_figures.h"
#include "core/chat/chat_edits.h"

#include "chat/chat_pane.h"
#include "chat/context_fit.h"
#include "core/pipeline/page_images.h"
#include "core/pipeline/page_ranges.h"

#include <QDebug>
#include <QFutureWatcher>
#include <QRandomGenerator>
#include <QtConcurrent>

#include <algorithm>
#include <utility>

namespace folio::ui {

ChatController::ChatController(ChatPane* pane, EngineWorker* worker, DocumentsOf documents,
                               QObject* parent)
    : QObject(parent), pane_(pane), worker_(worker), documents_(std::move(documents)),
      charsPerToken_(kDefaultCharsPerToken), pageImageDir_(defaultPageImageDir()),
      progress_(new AnswerProgress(this)) {
    connect(progress_, &AnswerProgress::reading, this,
            [this](qint64 done, qint64 total, double eta) {
                if (request_.id != 0)
                    pane_->setPrefillProgress(request_.chatId, done, total, eta);
            });
    connect(progress_, &AnswerProgress::writing, this, [this](qint64 tokens) {
        if (request_.id != 0)
            pane_->setAnswerProgress(request_.chatId, tokens);
    });
    connect(pane_, &ChatPane::sendRequested, this, &ChatController::onSend);
    connect(pane_, &ChatPane::stopRequested, this, &ChatController::stop);
    connect(pane_, &ChatPane::citationFixRequested, this, &ChatController::fixCitation);
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

void ChatController::onSend(const QString& question, const QString& chatId) {
    const ChatSession* chat = pane_->library()->find(chatId);
    if (!chat || pane_->library()->isBusy(chatId))
        return;
    const QStringList loading = loading_ ? loading_(*chat) : QStringList();
    if (loading.isEmpty() && !isAnswering()) {
        ask(question, chatId);
        return;
    }
    // One answer at a time, in the order asked; a question without its documents would be
    // answered wrongly. The chat says what it waits for (one whole sentence per state:
    // translations cannot be edited in fragments).
    queue_.append({chatId, question, loading.join(QStringLiteral(", "))});
    pane_->setWork(chatId, ChatLibrary::Work::Waiting);
    const ChatSession* answering = pane_->library()->find(request_.chatId);
    const QString notice =
        !loading.isEmpty() ? tr("Waiting for %1 to finish loading…").arg(queue_.last().documents)
        : answering ? tr("Waiting for the answer in “%1” to finish…").arg(answering->displayTitle())
                    : tr("Waiting for the answer being given to finish…");
    pane_->appendMessageTo(chatId, ChatMessage::Role::Notice, notice);
}

void ChatController::sendNextWaiting() {
    if (isAnswering())
        return;
    for (qsizetype i = 0; i < queue_.size(); ++i) {
        ChatSession* chat = pane_->library()->find(queue_[i].chatId);
        if (!chat) {
            queue_.removeAt(i--); // deleted while it waited
            continue;
        }
        const QStringList loading = loading_ ? loading_(*chat) : QStringList();
        if (!loading.isEmpty())
            continue;
        const Waiting next = queue_.takeAt(i);
        // The question goes last again, its notice saying what it waited for.
        QStringList titles;
        for (const Document& d : documents_ ? documents_(*chat) : QList<Document>())
            if (d.state == Document::State::Ready)
                titles << d.title;
        const QString notice =
            next.documents.isEmpty()
                ? tr("Waited for its turn: a question in another chat was being answered.")
                : tr("Waited for %1 to finish loading.").arg(next.documents);
        if (moveWaitingQuestionLast(*chat, notice, titles))
            pane_->refreshChat(next.chatId);
        pane_->setWork(next.chatId, ChatLibrary::Work::None);
        ask(next.question, next.chatId);
        return;
    }
}

void ChatController::ask(const QString& question, const QString& chatId) {
    const ChatSession& chat = *pane_->library()->find(chatId);
    PromptInput input;
    input.chat = chat;
    input.question = question;
    input.documents = documents_ ? documents_(chat) : QList<Document>();
    input.contextLimit = contextLimit_;
    // Pages the user pinned always go in; a document's scanned pages can be switched off.
    for (const ChatDocument& d : chat.documents) {
        if (!d.pinnedPages.trimmed().isEmpty())
            input.pinnedPages.insert(d.path, parsePageRanges(d.pinnedPages, d.pageCount));
        if (!d.readScannedPages)
            input.scannedPagesOff.insert(d.path);
    }
    input.readScannedPages = readsScannedPages_;
    input.acceptsImages = acceptsImages_;
    input.pageImageDir = pageImageDir_;
    request_ = Pending{};
    request_.id = worker_->newRequestId();
    request_.chatId = chatId;
    request_.dataSources = chat.activeDataSources();
    request_.agent = !request_.dataSources.isEmpty();
    request_.settings = chat.settings;
    // Seed 0 is "not fixed": another try at a question answered before samples afresh (the
    // same seed would give the same answer again).
    if (request_.settings.seed == 0 && isRegeneration(chat))
        request_.settings.seed = QRandomGenerator::global()->generate64() | 1;
    request_.preparing = true;
    pane_->setWork(chatId, ChatLibrary::Work::Answering);
    pane_->appendMessageTo(chatId, ChatMessage::Role::Assistant, QString());
    Q_EMIT answerStarted();
    const qint64 id = request_.id;
    if (!counter_.exact() && !input.readScannedPages) { // quick: no thread needed
        onPlanned(id, planPrompt(input, counter_, *pageTokens_));
        return;
    }
    // Exact counts of long documents take a while (the first question counts every page).
    pane_->setPreparingPrompt(chatId);
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
    pane_->setQuestionContextNote(request_.chatId, plan.contextNote,
                                  int(plan.droppedMessages.size()));
    request_.promptChars = plan.characters;
    request_.sent.start();
    Q_EMIT submitRequested(request_.id, plan.turns, request_.settings, request_.dataSources);
}

void ChatController::finishLocally(const QString& stopReason, const QString& notice) {
    const QString chatId = std::exchange(request_, Pending{}).chatId;
    progress_->stop();
    MessageStats ms;
    ms.stopReason = stopReason;
    // Why the question could not go stays on its answer (no figures: nothing was run).
    if (!notice.isEmpty()) {
        qWarning().noquote() << "folio: the question was not sent:" << notice;
        pane_->setLastInterrupted(chatId, notice);
    }
    pane_->setLastStats(chatId, ms);
    pane_->setWork(chatId, ChatLibrary::Work::None); // after the stats: notices follow them
    RequestStatsQ st;
    st.stopReason = stopReason;
    Q_EMIT answerFinished(st);
    nextWhenIdle();
}

void ChatController::nextWhenIdle() {
    // After the receivers of answerFinished have run (the window updates its lines first).
    QMetaObject::invokeMethod(this, &ChatController::sendNextWaiting, Qt::QueuedConnection);
}

void ChatController::stop(const QString& chatId) {
    if (isAnswering() && chatId == request_.chatId) {
        if (isPreparing())
            finishLocally(QStringLiteral("cancelled"), QString());
        else
            Q_EMIT cancelRequested(request_.id);
        return;
    }
    for (qsizetype i = 0; i < queue_.size(); ++i) {
        if (queue_[i].chatId != chatId)
            continue;
        queue_.removeAt(i);
        pane_->setWork(chatId, ChatLibrary::Work::None);
        pane_->appendMessageTo(chatId, ChatMessage::Role::Notice,
                               tr("Stopped waiting: the question was not sent."));
        return;
    }
}

void ChatController::onProgress(qint64 requestId, qint64 done, qint64 total, double etaSeconds) {
    if (isCurrent(requestId))
        progress_->prefill(requestId, done, total, etaSeconds);
}

void ChatController::onImageProgress(qint64 requestId, int done, int total) {
    if (!isCurrent(requestId))
        return;
    if (total > 0 && done >= total && request_.imagesReadyMs == 0 && request_.sent.isValid())
        request_.imagesReadyMs = double(request_.sent.nsecsElapsed()) / 1e6;
    pane_->setImageProgress(request_.chatId, done, total);
}

void ChatController::onToken(qint64 requestId, const QString& text) {
    if (!isCurrent(requestId))
        return;
    pane_->appendToLast(request_.chatId, text);
    progress_->token(requestId);
}

void ChatController::onAnswerReset(qint64 requestId) {
    if (isCurrent(requestId))
        pane_->resetLastText(request_.chatId);
}

void ChatController::onToolCall(qint64 requestId, int index, const ToolCallRecord& call) {
    if (isCurrent(requestId))
        pane_->setToolCall(request_.chatId, index, call);
}

void ChatController::onFailed(qint64 requestId, const QString& message) {
    if (isCurrent(requestId))
        request_.error = message; // shown under the answer once it has finished
}

void ChatController::onFinished(qint64 requestId, const RequestStatsQ& st) {
    if (!isCurrent(requestId))
        return;
    const Pending done = std::exchange(request_, Pending{});
    progress_->stop();
    const QString& chatId = done.chatId;
    const ChatSession* chat = pane_->library()->find(chatId);
    if (st.promptTokens > 0 && done.promptChars > 0) {
        charsPerToken_ = double(done.promptChars) / double(st.promptTokens);
        Q_EMIT charsPerTokenMeasured(charsPerToken_);
    }
    if (done.agent)
        pane_->setLastText(chatId, st.text); // the final answer, without the calls' text
    // The error stays on the answer: under what arrived (cut off), or in place of an answer
    // that never came (the question stays; "regenerate" asks it again). It is logged too.
    if (!done.error.isEmpty()) {
        qWarning().noquote() << "folio: the answer failed:" << done.error;
        pane_->setLastInterrupted(chatId, done.error);
    }
    MessageStats ms;
    ms.stopReason = st.stopReason;
    // A failed request that gave no answer keeps no figures (they would be zeros, not facts).
    const bool noAnswer = !done.error.isEmpty() && chat && !chat->messages.isEmpty() &&
                          chat->messages.last().text.isEmpty() &&
                          chat->messages.last().toolCalls.isEmpty();
    if (!noAnswer) {
        ms.promptTokens = st.promptTokens;
        ms.reusedTokens = st.reusedTokens;
        ms.generatedTokens = st.generatedTokens;
        ms.ttftMs = st.ttftMs;
        ms.imageMs = done.imagesReadyMs;
        ms.prefillTps = st.prefillTps;
        ms.decodeTps = st.decodeTps;
    }
    pane_->setLastStats(chatId, ms);
    pane_->setWork(chatId, ChatLibrary::Work::None); // after the stats: notices follow them
    if (!noAnswer)
        checkFigures(chatId);
    // What the context holds now: after a cancel during prefill only the chunks read.
    const qint64 held =
        st.promptReadTokens > 0 ? qMin(st.promptReadTokens, st.promptTokens) : st.promptTokens;
    pane_->setContextUsage(chatId, held + st.generatedTokens, contextLimit_);
    Q_EMIT answerFinished(st);
    nextWhenIdle();
}

void ChatController::fixCitation(const QString& chatId, qint64 messageId, int figure) {
    const ChatSession* chat = pane_->library()->find(chatId);
    if (!chat)
        return;
    const auto m = std::find_if(chat->messages.begin(), chat->messages.end(),
                                [messageId](const ChatMessage& x) { return x.id == messageId; });
    if (m == chat->messages.end() || figure < 0 || figure >= m->figures.size())
        return;
    const QList<FigureSource> sources =
        figureSources(*m, documents_ ? documents_(*chat) : QList<Document>());
    const QString was = m->text;
    const QString fixed = answerWithCitationFixed(was, m->figures[figure], sources);
    const QList<MarkdownTable> tables = queryResults(*m);
    if (fixed.isEmpty() || !pane_->replaceAnswerText(chatId, messageId, was, fixed))
        return;
    checkAnswerFiguresLater(
        this, fixed, sources,
        [this, chatId, messageId, fixed](const QList<CheckedFigure>& figures) {
            pane_->setAnswerFigures(chatId, messageId, fixed, figures);
            Q_EMIT figuresChecked(chatId, messageId);
        },
        0, -1, tables);
}

void ChatController::checkFigures(const QString& chatId) {
    const ChatSession* chat = pane_->library()->find(chatId);
    if (!chat || chat->messages.isEmpty())
        return;
    const ChatMessage& answer = chat->messages.last();
    if (answer.role != ChatMessage::Role::Assistant || answer.text.trimmed().isEmpty())
        return;
    const QList<FigureSource> sources =
        figureSources(answer, documents_ ? documents_(*chat) : QList<Document>());
    const QList<MarkdownTable> tables = queryResults(answer);
    const bool anyTable = std::any_of(tables.begin(), tables.end(),
                                      [](const MarkdownTable& t) { return !t.rows.isEmpty(); });
    if (sources.isEmpty() && !anyTable)
        return; // nothing to check against: every figure would only read "uncited"
    const qint64 messageId = answer.id;
    const QString text = answer.text;
    checkAnswerFiguresLater(
        this, text, sources,
        [this, chatId, messageId, text](const QList<CheckedFigure>& figures) {
            pane_->setAnswerFigures(chatId, messageId, text, figures);
            Q_EMIT figuresChecked(chatId, messageId);
        },
        0, -1, tables);
}

} // namespace folio::ui
