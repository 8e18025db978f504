// A chat's prompt (split from test_workbench_parts): old turns leave a prompt that does not fit
// first, and the prompt plan holds the documents' pages, the charts attached and the questions.
#include <QtTest>

#include "chat/context_fit.h"
#include "chat/conversation_prompt.h"
#include "core/chat/citations.h"

#include "support/test_support.h"
#include "ui/workbench_parts.h"

using namespace folio::ui;
using folio::test::message;
using folio::test::sampleChat;

class TestChatPrompt : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        folio::test::useScratchSettings(QStringLiteral("chat-prompt-xdg"),
                                        QStringLiteral("test_chat_prompt"));
    }

    void oldTurnsLeaveThePromptFirst() {
        // Estimates (no model): ~4 characters per token, 8 tokens per turn.
        FitInput in;
        in.systemPrompt = QString(400, QLatin1Char('d')); // 100 + 8 tokens
        for (int i = 0; i < 5; ++i) {
            in.history.append({QStringLiteral("user"), QString(400, QLatin1Char('q')), {}});
            in.history.append({QStringLiteral("assistant"), QString(400, QLatin1Char('a')), {}});
        }
        in.question = {QStringLiteral("user"), QStringLiteral("now?"), {}}; // 1 + 8 tokens
        const TokenCounter estimates;
        PageTokenCache cache;
        const FitResult unknown = fitToContext(in, estimates, cache); // no limit known
        QCOMPARE(unknown.droppedTurns, 0);
        QCOMPARE(unknown.turns.size(), 12);
        QCOMPARE(unknown.promptTokens, 11 * 108 + 9);
        in.contextLimit = 100000;
        QCOMPARE(fitToContext(in, estimates, cache).droppedTurns, 0);
        // 500 tokens: 117 for the system turn and the question leave 383, three turns of 108;
        // the oldest kept turn must be a question, so two.
        in.contextLimit = 500;
        const FitResult fitted = fitToContext(in, estimates, cache);
        QCOMPARE(fitted.droppedTurns, 8);
        QCOMPARE(fitted.turns.size(), 4);
        QCOMPARE(fitted.turns.first().role, QStringLiteral("system"));
        QCOMPARE(fitted.turns.at(1).role, QStringLiteral("user"));
        QCOMPARE(fitted.turns.last().content, QStringLiteral("now?"));
        QCOMPARE(fitted.promptTokens, 117 + 2 * 108);
        // The answer's room counts too.
        in.answerTokens = 200; // 300 left: 183 for turns, one question and its answer do not fit
        QCOMPARE(fitToContext(in, estimates, cache).droppedTurns, 10);
        // When the question alone does not fit, nothing is sent and the user is told what to do.
        in.answerTokens = 0;
        in.contextLimit = 100;
        const FitResult none = fitToContext(in, estimates, cache);
        QVERIFY(none.turns.isEmpty());
        QVERIFY2(none.error.contains(QStringLiteral("117 tokens")) &&
                     none.error.contains(QStringLiteral("larger context")),
                 qPrintable(none.error));
    }

    void promptHasDocumentsPagesAndCharts() {
        ChatSession chat = sampleChat();
        chat.messages.append(message(ChatMessage::Role::Notice, QStringLiteral("x.pdf failed")));
        chat.messages.append(message(ChatMessage::Role::User, QStringLiteral("And margins?")));
        Document pdf;
        pdf.title = QStringLiteral("Report");
        pdf.kind = Document::Kind::Pdf;
        pdf.state = Document::State::Ready;
        // (Pages of 16 characters or more: shorter ones count as scanned, see below.)
        pdf.pageTexts = {QStringLiteral("Meridian annual report"),
                         QStringLiteral("Revenue rose 12 % in 2024")};
        Document chart;
        chart.path = QStringLiteral("/d/chart.png");
        chart.kind = Document::Kind::Image;
        chart.state = Document::State::Ready;
        Document broken;
        broken.kind = Document::Kind::Pdf;
        broken.state = Document::State::Failed;
        const TokenCounter estimates;
        PageTokenCache cache;
        PromptInput in{chat, QStringLiteral("And margins?"), {pdf, chart, broken}, 0, {}};
        const PromptPlan plan = planPrompt(in, estimates, cache);
        QCOMPARE(plan.turns.size(), 4); // system, question, answer, question (no notice)
        // The citation rule, then the ready PDF (the failed one after it keeps number 2).
        const QString system =
            QStringLiteral("Be brief.\n\n") + citationRule() +
            QStringLiteral(
                "[document 1: Report]\n[page 1]\nMeridian annual report\n[page 2]\nRevenue "
                "rose 12 % in 2024\n");
        QCOMPARE(plan.turns[0].content, system);
        QCOMPARE(plan.turns[3].content, QStringLiteral("And margins?"));
        // An open image goes only with the questions it is attached to (question_image.h).
        QCOMPARE(plan.turns[3].images, QStringList());
        QVERIFY(plan.turns[1].images.isEmpty());
        QCOMPARE(plan.droppedTurns, 0);
        QVERIFY(plan.contextNote.isEmpty()); // everything went in
        QCOMPARE(plan.promptTokens, TokenCounter::estimatePrompt(plan.turns));
        // A context that holds the documents and the question, not the first question and
        // answer: both are left out and the note says so.
        in.documents = {pdf};
        in.contextLimit = TokenCounter::estimatePrompt(
                              {{QStringLiteral("system"), system, {}},
                               {QStringLiteral("user"), QStringLiteral("And margins?"), {}}}) +
                          chat.settings.maxTokens + 5;
        const PromptPlan tight = planPrompt(in, estimates, cache);
        QCOMPARE(tight.droppedTurns, 2);
        QCOMPARE(tight.droppedMessages, (QList<int>{0, 1}));
        QCOMPARE(tight.turns.size(), 2);
        QCOMPARE(tight.turns[0].content, system); // the documents' prefix is unchanged
        QCOMPARE(tight.turns.last().content, QStringLiteral("And margins?"));
        QCOMPARE(tight.contextNote, QStringLiteral("2 earlier turns left out"));
        // The question given is the one asked: the chat's last user message is that question.
        PromptInput other{chat, QStringLiteral("And costs?"), {}, 0, {}};
        const PromptPlan costs = planPrompt(other, estimates, cache);
        QCOMPARE(costs.turns.size(), 4);
        QCOMPARE(costs.turns[2].role, QStringLiteral("assistant"));
        QCOMPARE(costs.turns[3].content, QStringLiteral("And costs?"));
    }
};

QTEST_MAIN(TestChatPrompt)
#include "test_chat_prompt.moc"
