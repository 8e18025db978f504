// A kill -9 while an answer streams keeps what arrived (issue #48 §8): the chat's file holds the
// streamed text within a second, marked as cut off, while the chat on screen is unmarked; the
// answer's end writes it whole and unmarked. The file is what a killed process leaves behind.
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>

#include "chat/chat_pane.h"
#include "core/chat/chat_store.h"

using namespace folio::ui;

namespace {

ChatMessage lastSaved(const QString& dir) {
    QStringList errors;
    const QList<ChatSession> chats = ChatStore(dir).loadAll(&errors);
    if (chats.isEmpty() || chats.first().messages.isEmpty() || !errors.isEmpty())
        return {};
    return chats.first().messages.last();
}

} // namespace

class TestPartialAnswer : public QObject {
    Q_OBJECT
private slots:
    void streamedTextIsOnDiskMarkedAsCutOff() {
        QTemporaryDir dir;
        ChatPane pane;
        pane.openStore(dir.path());
        pane.setModelReady(true, QString());
        pane.appendMessage(ChatMessage::Role::User, QStringLiteral("What was revenue?"));
        pane.setWork(pane.currentChat().id, ChatLibrary::Work::Answering);
        pane.appendMessage(ChatMessage::Role::Assistant, QString());
        pane.appendToLast(pane.currentChat().id, QStringLiteral("Revenue was "));
        QTest::qWait(ChatPane::kStreamSaveMs + 100);
        pane.appendToLast(pane.currentChat().id, QStringLiteral("RMB 3.2 billion"));
        pane.waitForSaves();
        ChatMessage saved = lastSaved(dir.path());
        QCOMPARE(saved.role, ChatMessage::Role::Assistant);
        QCOMPARE(saved.text, QStringLiteral("Revenue was RMB 3.2 billion"));
        QVERIFY2(saved.interrupted.contains(QStringLiteral("before this answer was finished")),
                 qPrintable(saved.interrupted));
        // On screen the answer is still being written, not cut off.
        QVERIFY(pane.messages().last().interrupted.isEmpty());

        // More text within the second is not written at once (bounded writes) ...
        pane.appendToLast(pane.currentChat().id, QStringLiteral(" [p. 14]."));
        pane.waitForSaves();
        QCOMPARE(lastSaved(dir.path()).text, QStringLiteral("Revenue was RMB 3.2 billion"));
        // ... and the answer's end writes it whole, unmarked.
        MessageStats stats;
        stats.generatedTokens = 12;
        stats.stopReason = QStringLiteral("eos");
        pane.setLastStats(pane.currentChat().id, stats);
        pane.setWork(pane.currentChat().id, ChatLibrary::Work::None);
        pane.waitForSaves();
        saved = lastSaved(dir.path());
        QCOMPARE(saved.text, QStringLiteral("Revenue was RMB 3.2 billion [p. 14]."));
        QVERIFY(saved.interrupted.isEmpty());
        QCOMPARE(saved.stats.generatedTokens, 12);
    }
};

QTEST_MAIN(TestPartialAnswer)
#include "test_partial_answer.moc"
