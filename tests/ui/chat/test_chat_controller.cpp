// ChatController (issue #20): the chat's requests through the real ChatPane and EngineWorker,
// with a backend whose callbacks the test calls by hand, so the last pieces of a stopped answer
// arrive exactly where a race between threads could put them: while the next chat is answered.
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QtTest>

#include "backend/engine_worker.h"
#include "chat/chat_controller.h"
#include "chat/chat_pane.h"
#include "chat/transcript_view.h"
#include "support/test_support.h"

#include <memory>
#include <string>
#include <vector>

using namespace folio;
using namespace folio::ui;

namespace {

// Keeps every request it is given; the test plays the backend's part through their callbacks.
class HandBackend : public ChatBackend {
public:
    RequestId submit(Request r) override {
        requests.push_back(std::move(r));
        return RequestId(requests.size()); // 1, 2, ...
    }
    void cancel(RequestId id) override { cancelled.push_back(id); }
    void cancel_all() override {}
    void wait(RequestId) override {}
    ChatBackendStatus status() const override {
        ChatBackendStatus s;
        s.kind = "hand";
        return s;
    }

    std::vector<Request> requests;
    std::vector<RequestId> cancelled;
};

RequestStats stats(const std::string& text, const std::string& stopReason,
                   int64_t promptTokens = 0) {
    RequestStats st;
    st.text = text;
    st.stop_reason = stopReason;
    st.prompt_tokens = promptTokens;
    st.generated_tokens = 2;
    return st;
}

QStringList contents(const Request& r) {
    QStringList out;
    for (const Message& m : r.messages)
        out << QString::fromStdString(m.role + ": " + m.content);
    return out;
}

} // namespace

class TestChatController : public QObject {
    Q_OBJECT
    std::unique_ptr<ChatPane> pane_;
    std::unique_ptr<EngineWorker> worker_; // on this thread: its signals arrive at once
    std::unique_ptr<ChatController> controller_;
    HandBackend* backend_ = nullptr; // owned by the worker

private slots:
    void initTestCase() { registerEngineTypes(); }

    void init() {
        pane_ = std::make_unique<ChatPane>();
        pane_->openStore(folio::test::scratchDir(QStringLiteral("chat-controller")));
        worker_ = std::make_unique<EngineWorker>();
        controller_ = std::make_unique<ChatController>(
            pane_.get(), worker_.get(), [](const ChatSession&) { return QList<Document>(); });
        backend_ = new HandBackend;
        ModelFactsQ facts;
        facts.name = QStringLiteral("hand");
        facts.contextLimit = 8192;
        worker_->setBackend(std::unique_ptr<ChatBackend>(backend_), facts);
        pane_->setModelReady(true, QString());
    }

    void cleanup() {
        pane_->waitForSaves();
        controller_.reset();
        worker_.reset();
        pane_.reset();
    }

    // A first vision answer's TTFT is mostly the image being encoded (issue #48 §13): the line
    // under the answer says how much of it was, measured from the request to the moment its
    // images were ready.
    void theStatsLineSaysWhenTheImageWasBeingEncoded() {
        pane_->submitText(QStringLiteral("What does the chart show?"));
        QCOMPARE(backend_->requests.size(), size_t(1));
        const RequestCallbacks cb = backend_->requests[0].callbacks;
        QVERIFY(cb.on_image_progress);
        cb.on_image_progress(0, 1);
        QTest::qWait(250); // the vision model encodes the image
        cb.on_image_progress(1, 1);
        cb.on_token("A rising line.", -1);
        RequestStats st = stats("A rising line.", "eos", 900);
        st.ttft_ms = 400;
        cb.on_done(st);
        const MessageStats ms = pane_->messages().last().stats;
        QVERIFY2(ms.imageMs >= 240 && ms.imageMs <= 400, qPrintable(QString::number(ms.imageMs)));
        QVERIFY2(statsLine(ms).contains(QStringLiteral("TTFT 400 ms (")) &&
                     statsLine(ms).contains(QStringLiteral(" ms encoding images)")),
                 qPrintable(statsLine(ms)));
        // Without images the line has no such part.
        pane_->submitText(QStringLiteral("And the table?"));
        const RequestCallbacks cb2 = backend_->requests[1].callbacks;
        cb2.on_token("Two rows.", -1);
        cb2.on_done(stats("Two rows.", "eos", 950));
        QCOMPARE(pane_->messages().last().stats.imageMs, 0.0);
        QVERIFY(!statsLine(pane_->messages().last().stats).contains(QStringLiteral("encoding")));
    }

    // Chat A's answer is stopped; chat B asks; what A's request still sends while B is answered
    // (text, an error, its end) reaches neither B nor A.
    void anAnswerStaysWithItsRequest() {
        QSignalSpy finished(controller_.get(), &ChatController::answerFinished);
        pane_->submitText(QStringLiteral("Question A"));
        QCOMPARE(backend_->requests.size(), size_t(1));
        const QString chatA = pane_->currentChat().id;
        const RequestCallbacks a = backend_->requests[0].callbacks;
        a.on_token("Answer A", -1);
        QCOMPARE(pane_->messages().last().text, QStringLiteral("Answer A"));
        QVERIFY(controller_->isAnswering());

        Q_EMIT pane_->stopRequested(chatA);
        QCOMPARE(backend_->cancelled, std::vector<RequestId>{1});
        a.on_done(stats("Answer A", "cancelled"));
        QCOMPARE(finished.size(), 1);
        QVERIFY(!pane_->isGenerating());
        QVERIFY(!controller_->isAnswering());

        pane_->newChat();
        QVERIFY(pane_->currentChat().id != chatA);
        pane_->submitText(QStringLiteral("Question B"));
        QCOMPARE(backend_->requests.size(), size_t(2));
        const RequestCallbacks b = backend_->requests[1].callbacks;
        b.on_token("Answer", -1);
        a.on_prefill_progress(10, 20, 1.0);
        a.on_token(" late A", -1);
        a.on_error(make_error(ErrorCode::Io, "connection reset"));
        a.on_done(stats("Answer A late A", "error"));
        QCOMPARE(finished.size(), 1);
        QVERIFY(pane_->isGenerating()); // B is still being answered
        b.on_token(" B", -1);
        b.on_done(stats("Answer B", "eos"));
        QCOMPARE(finished.size(), 2);
        QCOMPARE(finished.last().at(0).value<RequestStatsQ>().stopReason, QStringLiteral("eos"));

        const QList<ChatMessage> chatB = pane_->messages();
        QCOMPARE(chatB.size(), 2); // no notice of A's error
        QCOMPARE(chatB[0].text, QStringLiteral("Question B"));
        QCOMPARE(chatB[1].text, QStringLiteral("Answer B"));
        QCOMPARE(chatB[1].stats.stopReason, QStringLiteral("eos"));
        QVERIFY(chatB[1].interrupted.isEmpty());
        int indexA = -1;
        for (int i = 0; i < pane_->chats().size(); ++i)
            if (pane_->chats()[i].id == chatA)
                indexA = i;
        pane_->selectChat(indexA);
        const QList<ChatMessage> answerA = pane_->messages();
        QCOMPARE(answerA.size(), 2);
        QCOMPARE(answerA[1].text, QStringLiteral("Answer A"));
        QCOMPARE(answerA[1].stats.stopReason, QStringLiteral("cancelled"));
    }

    // Issue #48 §9, §11: the gauge follows the answer's phase (reading the prompt, then writing
    // the answer), and its time left follows the measured rate and grows while no chunk
    // arrives instead of standing still (the clock is scripted; tick() is the 1 s timer).
    void theGaugeFollowsThePhaseAndNeverFreezes() {
        auto* gauge = pane_->findChild<QProgressBar*>(QStringLiteral("contextGauge"));
        QVERIFY(gauge);
        double now = 100;
        controller_->answerProgress()->setClock([&now] { return now; });
        pane_->submitText(QStringLiteral("Question"));
        QCOMPARE(backend_->requests.size(), size_t(1));
        const RequestCallbacks a = backend_->requests[0].callbacks;
        a.on_prefill_progress(512, 4096, 14.0); // the engine's own first figure
        QCOMPARE(gauge->format(), QStringLiteral("reading the prompt: 512 / 4,096 tokens · "
                                                 "about 14 s left"));
        now += 4;
        a.on_prefill_progress(1024, 4096, 4.0); // measured: 512 tokens in 4 s
        QCOMPARE(gauge->format(), QStringLiteral("reading the prompt: 1,024 / 4,096 tokens · "
                                                 "about 24 s left"));
        // No chunk for 60 s: the second-by-second re-evaluation grows the estimate.
        now += 30;
        controller_->answerProgress()->tick();
        const QString after30 = gauge->format();
        now += 30;
        controller_->answerProgress()->tick();
        const QString after60 = gauge->format();
        QVERIFY2(after30.contains(QStringLiteral(" min")), qPrintable(after30));
        QVERIFY2(after60 != after30, qPrintable(after60));
        QVERIFY(!after60.contains(QStringLiteral("24 s")));
        a.on_prefill_progress(4096, 4096, 0);
        a.on_token("The", -1);
        QCOMPARE(gauge->format(), QStringLiteral("writing the answer: 1 token"));
        a.on_token(" answer", -1);
        QCOMPARE(gauge->format(), QStringLiteral("writing the answer: 2 tokens"));
        controller_->answerProgress()->tick(); // no prompt line comes back
        QVERIFY(gauge->format().startsWith(QStringLiteral("writing the answer")));
        a.on_done(stats("The answer", "eos", 4096));
        QVERIFY(gauge->format().startsWith(QStringLiteral("context: ")));
    }

    // Issue #48 §7: while chat A is answered, the chat list and New chat stay usable; chat B can
    // be read, written in and asked: its question waits its turn (saying so), A's answer keeps
    // streaming into A whichever chat is shown, and B's question goes when A's answer ends.
    // Stop takes a waiting question back; deleting a chat stops its answer.
    void anotherChatIsUsableWhileOneIsAnswered() {
        auto* list = pane_->findChild<QListWidget*>(QStringLiteral("chatList"));
        auto* newChat = pane_->findChild<QPushButton*>(QStringLiteral("newChatButton"));
        auto* send = pane_->findChild<QPushButton*>(QStringLiteral("sendButton"));
        auto* stop = pane_->findChild<QPushButton*>(QStringLiteral("stopButton"));
        pane_->submitText(QStringLiteral("Question A"));
        const QString chatA = pane_->currentChat().id;
        QCOMPARE(backend_->requests.size(), size_t(1));
        const RequestCallbacks a = backend_->requests[0].callbacks;
        a.on_token("Revenue ", -1);
        QVERIFY(list->isEnabled());
        QVERIFY(newChat->isEnabled());
        QVERIFY(!send->isEnabled()); // A is answered: its own Send waits, Stop stops it
        QVERIFY(stop->isEnabled());

        newChat->click();
        const QString chatB = pane_->currentChat().id;
        QVERIFY(chatB != chatA);
        QVERIFY(send->isEnabled()); // another chat: asking is allowed
        QVERIFY(!stop->isEnabled());
        pane_->submitText(QStringLiteral("Question B"));
        QCOMPARE(backend_->requests.size(), size_t(1)); // waits: one answer at a time
        QCOMPARE(controller_->waitingCount(), 1);
        QVERIFY(pane_->isWaiting());
        QVERIFY(stop->isEnabled());
        QCOMPARE(pane_->messages().size(), 2);
        QCOMPARE(pane_->messages().last().role, ChatMessage::Role::Notice);
        QVERIFY2(pane_->messages().last().text.contains(QStringLiteral("Waiting for the answer in "
                                                                       "“Question A”")),
                 qPrintable(pane_->messages().last().text));

        // A's answer streams into A while B is shown; B is untouched.
        a.on_token("rose 12%.", -1);
        QCOMPARE(pane_->messages().size(), 2);
        const ChatSession* inA = pane_->library()->find(chatA);
        QCOMPARE(inA->messages.last().text, QStringLiteral("Revenue rose 12%."));

        // A third chat asks too, then takes its question back with Stop.
        newChat->click();
        const QString chatC = pane_->currentChat().id;
        pane_->submitText(QStringLiteral("Question C"));
        QCOMPARE(controller_->waitingCount(), 2);
        stop->click();
        QCOMPARE(controller_->waitingCount(), 1);
        QVERIFY(!pane_->isWaiting());
        QVERIFY(pane_->messages().last().text.contains(QStringLiteral("Stopped waiting")));

        // Back in A, mid-answer: the transcript shows what streamed; A ends, B's question goes.
        pane_->selectChat(pane_->library()->indexOf(chatA));
        QCOMPARE(pane_->messages().last().text, QStringLiteral("Revenue rose 12%."));
        QVERIFY(pane_->isGenerating());
        a.on_done(stats("Revenue rose 12%.", "eos", 30));
        QVERIFY(!pane_->isGenerating());
        QCOMPARE(pane_->messages().last().stats.stopReason, QStringLiteral("eos"));
        QTRY_COMPARE(backend_->requests.size(), size_t(2));
        QCOMPARE(controller_->answeringChat(), chatB);
        QCOMPARE(contents(backend_->requests[1]).mid(1),
                 QStringList{QStringLiteral("user: Question B")});
        const ChatSession* inB = pane_->library()->find(chatB);
        QCOMPARE(inB->messages.size(), 3); // the notice, the question moved last, its answer
        QVERIFY2(inB->messages[0].text.contains(QStringLiteral("Waited for its turn")),
                 qPrintable(inB->messages[0].text));
        QCOMPARE(inB->messages[1].text, QStringLiteral("Question B"));
        QCOMPARE(inB->messages[2].role, ChatMessage::Role::Assistant);
        QCOMPARE(pane_->library()->find(chatC)->messages.first().text,
                 QStringLiteral("Question C")); // C's question stays, not asked

        // Deleting B while it is answered stops its answer; nothing is asked after it.
        pane_->deleteChat(pane_->library()->indexOf(chatB));
        QCOMPARE(backend_->cancelled, std::vector<RequestId>{2});
        backend_->requests[1].callbacks.on_token("late", -1);
        backend_->requests[1].callbacks.on_done(stats("late", "cancelled"));
        QVERIFY(!controller_->isAnswering());
        QTest::qWait(50);
        QCOMPARE(backend_->requests.size(), size_t(2));
        QCOMPARE(pane_->library()->indexOf(chatB), -1);
        QCOMPARE(pane_->library()->find(chatA)->messages.last().text,
                 QStringLiteral("Revenue rose 12%."));
    }

    // The prompt asks the question it was given, after the conversation before it; the
    // characters per token are measured on that prompt.
    void sendsTheQuestionItIsGiven() {
        QSignalSpy measured(controller_.get(), &ChatController::charsPerTokenMeasured);
        pane_->submitText(QStringLiteral("first question"));
        const Request& first = backend_->requests[0];
        QCOMPARE(first.messages.size(), size_t(2));
        QCOMPARE(first.messages[0].role, std::string("system"));
        QCOMPARE(contents(first).last(), QStringLiteral("user: first question"));
        first.callbacks.on_token("first answer", -1);
        qint64 chars = 0;
        for (const Message& m : first.messages)
            chars += QString::fromStdString(m.content).size();
        first.callbacks.on_done(stats("first answer", "eos", 50));
        QCOMPARE(measured.size(), 1);
        QCOMPARE(measured[0][0].toDouble(), double(chars) / 50.0);
        QCOMPARE(controller_->charsPerToken(), double(chars) / 50.0);

        // Not the chat's last message: the question given is asked after the conversation.
        controller_->onSend(QStringLiteral("second question"), pane_->currentChat().id);
        QCOMPARE(backend_->requests.size(), size_t(2));
        QCOMPARE(contents(backend_->requests[1]).mid(1),
                 (QStringList{QStringLiteral("user: first question"),
                              QStringLiteral("assistant: first answer"),
                              QStringLiteral("user: second question")}));
        backend_->requests[1].callbacks.on_done(stats(std::string(), "eos"));

        // Regenerate asks the chat's last question again, without the answers after it.
        pane_->regenerate();
        QCOMPARE(backend_->requests.size(), size_t(3));
        QCOMPARE(contents(backend_->requests[2]).mid(1),
                 QStringList{QStringLiteral("user: first question")});
        backend_->requests[2].callbacks.on_done(stats("again", "eos"));
        QVERIFY(!pane_->isGenerating());
    }

    // Regenerate gives another answer (issue #48 §13): with the chat's seed left at 0 it gets a
    // seed of its own each time; a seed the user fixed is kept.
    void regenerateSamplesAgain() {
        pane_->submitText(QStringLiteral("Name a colour."));
        QCOMPARE(backend_->requests[0].sampling.seed, uint64_t(0));
        backend_->requests[0].callbacks.on_done(stats("Red.", "eos"));
        pane_->setLastText(pane_->currentChat().id, QStringLiteral("Red."));
        pane_->regenerate();
        QCOMPARE(backend_->requests.size(), size_t(2));
        const uint64_t second = backend_->requests[1].sampling.seed;
        QVERIFY(second != 0);
        backend_->requests[1].callbacks.on_done(stats("Blue.", "eos"));
        pane_->setLastText(pane_->currentChat().id, QStringLiteral("Blue."));
        pane_->regenerate();
        QCOMPARE(backend_->requests.size(), size_t(3));
        QVERIFY(backend_->requests[2].sampling.seed != 0);
        QVERIFY(backend_->requests[2].sampling.seed != second);
        backend_->requests[2].callbacks.on_done(stats("Green.", "eos"));
        pane_->setLastText(pane_->currentChat().id, QStringLiteral("Green."));

        GenerationSettings fixed = pane_->currentChat().settings;
        fixed.seed = 1234;
        pane_->setChatSettings(pane_->currentChat().systemPrompt, fixed);
        pane_->regenerate();
        QCOMPARE(backend_->requests.size(), size_t(4));
        QCOMPARE(backend_->requests[3].sampling.seed, uint64_t(1234));
        backend_->requests[3].callbacks.on_done(stats("Green.", "eos"));
    }

    // An error ends the answer: under the text that arrived (marked cut off), or as a notice.
    void anErrorIsShownWithTheAnswer() {
        pane_->submitText(QStringLiteral("one"));
        const RequestCallbacks one = backend_->requests[0].callbacks;
        one.on_token("partial", -1);
        one.on_error(make_error(ErrorCode::Io, "connection reset"));
        one.on_done(stats("partial", "error"));
        QCOMPARE(pane_->messages().size(), 2);
        QCOMPARE(pane_->messages().last().text, QStringLiteral("partial"));
        QVERIFY2(pane_->messages().last().interrupted.contains(QStringLiteral("connection reset")),
                 qPrintable(pane_->messages().last().interrupted));

        pane_->submitText(QStringLiteral("two"));
        const RequestCallbacks two = backend_->requests[1].callbacks;
        two.on_error(make_error(ErrorCode::Io, "refused"));
        two.on_done(stats(std::string(), "error"));
        // Nothing arrived: the error is on the answer, without figures that were never
        // measured; no notice is added to the chat.
        const QList<ChatMessage> messages = pane_->messages();
        QCOMPARE(messages.size(), 4); // one, partial, two, the failed answer
        QCOMPARE(messages.last().role, ChatMessage::Role::Assistant);
        QVERIFY(messages.last().text.isEmpty());
        QVERIFY2(messages.last().interrupted.contains(QStringLiteral("refused")),
                 qPrintable(messages.last().interrupted));
        QCOMPARE(statsLine(messages.last().stats), QString());
        pane_->transcript()->flush();
        const QString shown = pane_->transcript()->toPlainText();
        const QString failed = shown.mid(shown.lastIndexOf(QStringLiteral("two")));
        QVERIFY2(failed.contains(QStringLiteral("[no answer: ")) &&
                     failed.contains(QStringLiteral("regenerate")) &&
                     !failed.contains(QStringLiteral("prompt tokens")),
                 qPrintable(failed));
        // Asked again, the failed answer is not kept as a version.
        pane_->regenerate();
        backend_->requests[2].callbacks.on_token("answer two", -1);
        backend_->requests[2].callbacks.on_done(stats("answer two", "eos", 7));
        QCOMPARE(pane_->messages().size(), 4);
        QCOMPARE(pane_->messages().last().text, QStringLiteral("answer two"));
        QVERIFY(pane_->messages().last().interrupted.isEmpty());
        QVERIFY(pane_->currentChat().otherVersions.isEmpty());
    }
};

QTEST_MAIN(TestChatController)
#include "test_chat_controller.moc"
