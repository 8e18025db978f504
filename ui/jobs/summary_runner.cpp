#include "jobs/summary_runner.h"

#include "chat/chat_pane.h"
#include "core/chat/answer_figures.h"

#include <QFileInfo>

#include <QInputDialog>
#include <QStringList>
#include <QTimer>

namespace folio::ui {

SummaryRunner::SummaryRunner(ChatPane* pane, EngineWorker* worker, QObject* parent)
    : QObject(parent), pane_(pane), job_(new BlockingJob(worker, this)), ticker_(new QTimer(this)) {
    ticker_->setInterval(1000);
    connect(ticker_, &QTimer::timeout, this, &SummaryRunner::tick);
    connect(worker, &EngineWorker::modelLoaded, this,
            [this](const ModelFactsQ& facts) { contextLimit_ = facts.contextLimit; });
    connect(worker, &EngineWorker::counterChanged, this,
            [this](const TokenCounter& counter) { counter_ = counter; });
    connect(pane_, &ChatPane::stopRequested, this, [this](const QString& chatId) {
        if (thread_ && chatId == chatId_)
            stop();
    });
}

SummaryRunner::~SummaryRunner() {
    stop();
    if (thread_)
        thread_->join();
}

void SummaryRunner::summarizeOneOf(const QList<Document>& documents, QWidget* parent) {
    QList<Document> pdfs;
    QStringList names;
    for (const Document& d : documents)
        if (d.state == Document::State::Ready && d.kind == Document::Kind::Pdf) {
            pdfs << d;
            names << d.title;
        }
    if (pdfs.isEmpty()) {
        Q_EMIT statusMessage(tr("Open a PDF to summarize it (File → Open document…)"), 8000);
        return;
    }
    int chosen = 0;
    if (pdfs.size() > 1) {
        bool ok = false;
        const QString name = QInputDialog::getItem(parent, tr("Summarize document"),
                                                   tr("Document:"), names, 0, false, &ok);
        if (!ok)
            return;
        chosen = int(names.indexOf(name));
    }
    summarize(pdfs[chosen]);
}

void SummaryRunner::summarize(const Document& doc) {
    if (thread_ || doc.state != Document::State::Ready || doc.kind != Document::Kind::Pdf)
        return;
    if (pane_->library()->isBusy(pane_->currentChat().id)) {
        Q_EMIT statusMessage(tr("Wait for this chat's answer to finish, or stop it, then "
                                "summarize (or summarize in another chat)"),
                             8000);
        return;
    }
    chatId_ = pane_->currentChat().id;
    SummaryOptions options;
    options.title = doc.title;
    options.pageTexts = doc.pageTexts;
    // A server that does not say its context: a common size (the plan keeps every prompt in it).
    options.contextTokens = contextLimit_ > 0 ? contextLimit_ : 4096;
    settings_ = pane_->currentChat().settings;
    options.answerTokens = settings_.maxTokens;
    title_ = doc.title;
    documentPath_ = doc.path;
    pageTexts_ = doc.pageTexts;
    job_->reset();
    stopping_ = false;
    pane_->appendMessageTo(chatId_, ChatMessage::Role::Notice,
                           tr("Summarizing “%1” (%2 pages)…").arg(doc.title).arg(doc.pageCount));
    pane_->setWork(chatId_, ChatLibrary::Work::Summarizing);
    clock_.start();
    eta_.start(0, 0);
    const TokenCounter counter = counter_;
    thread_ = std::make_unique<std::thread>([this, options, counter] {
        const SummaryResult result = summarizeDocument(
            options, counter, [this](const SummaryRequest& r) { return ask(r); },
            [this](const SummaryProgress& p) {
                QMetaObject::invokeMethod(this, [this, p] { showProgress(p); });
            });
        QMetaObject::invokeMethod(this, [this, result] { finish(result); });
    });
}

void SummaryRunner::stop() {
    if (!thread_ || stopping_)
        return;
    stopping_ = true;
    job_->stop();
}

// On the plan's thread: one request through the job, waited for.
SummaryAnswer SummaryRunner::ask(const SummaryRequest& request) {
    GenerationSettings settings = settings_;
    settings.maxTokens = request.maxTokens;
    const JobAnswer answer = job_->ask(request.turns, settings);
    if (answer.status == JobAnswer::Status::Cancelled)
        return {SummaryAnswer::Status::Cancelled, {}, {}};
    if (answer.status == JobAnswer::Status::Failed)
        return {SummaryAnswer::Status::Failed, {}, answer.error};
    return {SummaryAnswer::Status::Ok, answer.text, {}};
}

void SummaryRunner::showProgress(const SummaryProgress& p) {
    if (!thread_)
        return;
    const double now = double(clock_.nsecsElapsed()) / 1e9;
    eta_.setTotal(p.workTotal);
    eta_.progress(p.workDone, now);
    progress_ = p;
    if (!ticker_->isActive())
        ticker_->start();
    tick();
}

void SummaryRunner::tick() {
    if (!thread_) {
        ticker_->stop();
        return;
    }
    SummaryProgress p = progress_;
    const double now = double(clock_.nsecsElapsed()) / 1e9;
    p.etaSeconds = eta_.remaining(now);
    const QString line = formatSummaryProgress(p);
    pane_->setLastText(chatId_, tr("Summarizing “%1”: %2").arg(title_, line));
    Q_EMIT statusMessage(tr("Summary: %1").arg(line), 0);
}

void SummaryRunner::finish(const SummaryResult& result) {
    thread_->join();
    thread_.reset();
    ticker_->stop();
    const double seconds = double(clock_.elapsed()) / 1000.0;
    if (result.ok) {
        pane_->setLastText(chatId_,
                           tr("Summarized “%1” in %2 parts and %3 stages (%4 requests, %5 s).")
                               .arg(title_)
                               .arg(result.parts.size())
                               .arg(result.stages)
                               .arg(result.requests)
                               .arg(seconds, 0, 'f', 1));
        pane_->setWork(chatId_, ChatLibrary::Work::None);
        const QString heading = tr("# Summary: %1\n\n").arg(title_);
        const QString markdown = heading + result.markdown;
        pane_->appendMessageTo(chatId_, ChatMessage::Role::Assistant, markdown);
        pane_->refreshChat(chatId_); // shown whole and saved
        if (const ChatSession* chat = pane_->library()->find(chatId_))
            checkFigures(chat->messages.last().id, markdown, heading.size(), result.summary.size());
        lastSummary_ = {chatId_, tr("Summary: %1").arg(title_), documentPath_, markdown,
                        QDateTime::currentDateTime()};
        Q_EMIT statusMessage(tr("Summary ready"), 5000);
    } else {
        pane_->setLastText(chatId_,
                           result.cancelled
                               ? tr("Summary of “%1” stopped (%2).").arg(title_, result.error)
                               : tr("The summary of “%1” failed: %2").arg(title_, result.error));
        pane_->setWork(chatId_, ChatLibrary::Work::None);
        pane_->refreshChat(chatId_);
        Q_EMIT statusMessage(result.cancelled ? tr("Summary stopped") : tr("Summary failed"), 5000);
    }
    Q_EMIT summaryFinished(result.ok);
}

void SummaryRunner::checkFigures(qint64 messageId, const QString& text, qsizetype summaryAt,
                                 qsizetype summaryLength) {
    FigureSource source;
    source.title = title_;
    source.fileName = QFileInfo(documentPath_).fileName();
    source.pages = pageTexts_;
    const QString chatId = chatId_;
    // The model's claims only, not the heading's or the parts' numbers.
    checkAnswerFiguresLater(
        this, text, {source},
        [this, chatId, messageId, text](const QList<CheckedFigure>& figures) {
            pane_->setAnswerFigures(chatId, messageId, text, figures);
            Q_EMIT figuresChecked(chatId, messageId);
        },
        summaryAt, summaryLength);
}

} // namespace folio::ui
