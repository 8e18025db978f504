// ChatController's send path with an exact counter (issue #22 §2): the prompt is planned on the
// thread pool while the pane shows the answer as started; Stop while it is planned ends the
// answer as cancelled and sends nothing; a second question meanwhile is refused; a question
// that cannot fit the context says what to do instead of leaving an empty answer; a report
// longer than the context goes out with the pages that fit, named on the question.
#include <QSignalSpy>
#include <QThread>
#include <QtTest>

#include "backend/engine_worker.h"
#include "chat/chat_controller.h"
#include "chat/chat_pane.h"
#include "core/pipeline/page_ranges.h"
#include "support/test_support.h"

#include <atomic>
#include <memory>
#include <vector>

using namespace folio;
using namespace folio::ui;

namespace {

class HandBackend : public ChatBackend {
public:
    RequestId submit(Request r) override {
        requests.push_back(std::move(r));
        return RequestId(requests.size());
    }
    void cancel(RequestId) override {}
    void cancel_all() override {}
    void wait(RequestId) override {}
    ChatBackendStatus status() const override { return {}; }
    std::vector<Request> requests;
};

// Exact by construction: one token per character, 10 per turn; each count takes `delayMs`, as
// a tokenizer over a long page does.
TokenCounter slowCharCounter(int delayMs) {
    return TokenCounter(
        QStringLiteral("chars"),
        [delayMs](const QString& t) {
            QThread::msleep(delayMs);
            return qint64(t.size());
        },
        [](const QList<ChatTurn>& turns) {
            qint64 n = 0;
            for (const ChatTurn& t : turns)
                n += t.content.size() + 10;
            return n;
        });
}

Document longReport(int pages) {
    Document d;
    d.title = QStringLiteral("Long report");
    d.path = QStringLiteral("/r/long.pdf");
    d.fingerprint = QStringLiteral("long-%1").arg(pages);
    d.state = Document::State::Ready;
    d.pageCount = pages;
    for (int p = 1; p <= pages; ++p)
        d.pageTexts << QStringLiteral("Page %1 talks about revenue and costs.").arg(p);
    d.pageTexts[41] = QStringLiteral("The walrus census counted 12 walruses.");
    return d;
}

} // namespace

class TestChatPlanning : public QObject {
    Q_OBJECT
    std::unique_ptr<ChatPane> pane_;
    std::unique_ptr<EngineWorker> worker_;
    std::unique_ptr<ChatController> controller_;
    HandBackend* backend_ = nullptr;
    QList<Document> documents_;

private slots:
    void initTestCase() { registerEngineTypes(); }

    void init() {
        documents_ = {longReport(100)};
        pane_ = std::make_unique<ChatPane>();
        pane_->openStore(folio::test::scratchDir(QStringLiteral("chat-planning")));
        worker_ = std::make_unique<EngineWorker>();
        controller_ = std::make_unique<ChatController>(
            pane_.get(), worker_.get(), [this](const ChatSession&) { return documents_; });
        backend_ = new HandBackend;
        ModelFactsQ facts;
        facts.contextLimit = 2000;
        worker_->setBackend(std::unique_ptr<ChatBackend>(backend_), facts);
        Q_EMIT worker_->counterChanged(slowCharCounter(5)); // 100 pages: ~0.5 s to count
        pane_->setModelReady(true, QString());
        GenerationSettings s = pane_->currentChat().settings;
        s.maxTokens = 200;
        pane_->setChatSettings(pane_->currentChat().systemPrompt, s);
    }

    void cleanup() {
        pane_->waitForSaves();
        controller_.reset();
        worker_.reset();
        pane_.reset();
        QThreadPool::globalInstance()->waitForDone();
    }

    void plansOffTheGuiThreadAndNamesThePages() {
        QVERIFY(controller_->counter().exact());
        pane_->submitText(QStringLiteral("How many walruses were counted?"));
        QVERIFY(pane_->isGenerating());
        QVERIFY(controller_->isPreparing());
        QCOMPARE(backend_->requests.size(), size_t(0)); // still being planned
        // The chat is busy: a second question there is neither sent nor queued.
        controller_->onSend(QStringLiteral("Another question"), pane_->currentChat().id);
        QCOMPARE(controller_->waitingCount(), 0);
        QTRY_COMPARE_WITH_TIMEOUT(backend_->requests.size(), size_t(1), 20000);
        QVERIFY(!controller_->isPreparing());
        const PromptPlan& plan = controller_->lastPlan();
        // 2000 - 200 for the answer: the prompt, counted the same way, fits.
        QVERIFY2(plan.promptTokens <= 1800, qPrintable(QString::number(plan.promptTokens)));
        QVERIFY(plan.promptTokens > 1500);
        qint64 chars = 0;
        for (const Message& m : backend_->requests[0].messages)
            chars += QString::fromStdString(m.content).size() + 10;
        QCOMPARE(chars, plan.promptTokens);
        const QList<int> pages = plan.pages.first().pages;
        QVERIFY(pages.contains(42));
        QVERIFY(pages.size() < 100);
        const ChatMessage question = pane_->messages().first();
        QCOMPARE(question.contextNote, plan.pages.first().explained());
        QVERIFY2(question.contextNote.startsWith(QStringLiteral("pages 42 (best match), 1–")) &&
                     question.contextNote.endsWith(QStringLiteral(" (room left) of 100")),
                 qPrintable(question.contextNote));
        QCOMPARE(controller_->pageTokenCache()->pagesCounted(), 100);
        backend_->requests[0].callbacks.on_done(RequestStats{});
        QVERIFY(!pane_->isGenerating());
    }

    void stopWhilePlanningSendsNothing() {
        QSignalSpy finished(controller_.get(), &ChatController::answerFinished);
        pane_->submitText(QStringLiteral("How many walruses?"));
        QVERIFY(controller_->isPreparing());
        Q_EMIT pane_->stopRequested(pane_->currentChat().id);
        QCOMPARE(finished.size(), 1);
        QCOMPARE(finished.first().first().value<RequestStatsQ>().stopReason,
                 QStringLiteral("cancelled"));
        QVERIFY(!pane_->isGenerating());
        QCOMPARE(pane_->messages().last().stats.stopReason, QStringLiteral("cancelled"));
        QThreadPool::globalInstance()->waitForDone();
        QCoreApplication::processEvents();
        QCOMPARE(backend_->requests.size(), size_t(0));
    }

    void aQuestionThatCannotFitSaysWhatToDo() {
        QSignalSpy finished(controller_.get(), &ChatController::answerFinished);
        pane_->submitText(QString(3000, QLatin1Char('q')));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 20000);
        QCOMPARE(finished.first().first().value<RequestStatsQ>().stopReason,
                 QStringLiteral("error"));
        QCOMPARE(backend_->requests.size(), size_t(0));
        // Said on the answer that could not be given (no notice, no figures).
        const ChatMessage answer = pane_->messages().last();
        QCOMPARE(answer.role, ChatMessage::Role::Assistant);
        QVERIFY(answer.text.isEmpty());
        QVERIFY2(answer.interrupted.contains(QStringLiteral("Shorten the question")),
                 qPrintable(answer.interrupted));
        QCOMPARE(statsLine(answer.stats), QString());
    }
};

QTEST_MAIN(TestChatPlanning)
#include "test_chat_planning.moc"
