// The workbench's chats without a widget (core/chat/chat_library.h, chat_edits.h): the list and
// its store on disk, deleting and bringing back, and the message edits the Chat pane makes.
#include <QDir>
#include <QFile>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include "core/chat/chat_edits.h"
#include "core/chat/chat_json.h"
#include "core/chat/chat_library.h"

using namespace folio::ui;

namespace {

ChatMessage message(ChatMessage::Role role, const QString& text) {
    ChatMessage m;
    m.role = role;
    m.text = text;
    return m;
}

// A chat with one question and its answer (ids 1 and 2).
ChatSession askedOnce(const QString& question, const QString& answer) {
    ChatSession chat = ChatSession::create();
    appendMessage(chat, message(ChatMessage::Role::User, question));
    appendMessage(chat, message(ChatMessage::Role::Assistant, answer));
    return chat;
}

int filesIn(const QString& dir) {
    return int(QDir(dir).entryList({QStringLiteral("*.json")}, QDir::Files).size());
}

} // namespace

class TestChatLibrary : public QObject {
    Q_OBJECT
private slots:
    void startsWithOneEmptyChat() {
        ChatLibrary library;
        QCOMPARE(library.chats().size(), 1);
        QVERIFY(ChatLibrary::isEmpty(library.current()));
        QCOMPARE(library.currentIndex(), 0);
    }

    void savesAndReadsBack() {
        QTemporaryDir dir;
        {
            ChatLibrary library;
            QVERIFY(library.open(dir.path()).isEmpty());
            library.current() = askedOnce(QStringLiteral("Revenue in 2023?"),
                                          QStringLiteral("RMB 3.2 billion [p. 14]."));
            library.save();
            library.newChat(); // the first is not empty: a second one, on top
            QCOMPARE(library.chats().size(), 2);
            QCOMPARE(library.currentIndex(), 0);
            library.rename(1, QStringLiteral("  Annual report  "));
            library.waitForSaves();
        }
        QCOMPARE(filesIn(dir.path()), 1); // the empty chat has no file
        ChatLibrary again;
        QVERIFY(again.open(dir.path()).isEmpty());
        QCOMPARE(again.chats().size(), 1);
        QCOMPARE(again.current().title, QStringLiteral("Annual report"));
        QCOMPARE(again.current().messages.size(), 2);
        QCOMPARE(again.current().messages[1].text, QStringLiteral("RMB 3.2 billion [p. 14]."));
    }

    void newChatReusesAnEmptyOne() {
        ChatLibrary library;
        library.current() = askedOnce(QStringLiteral("q"), QStringLiteral("a"));
        library.newChat();
        library.newChat();
        QCOMPARE(library.chats().size(), 2);
        QCOMPARE(library.currentIndex(), 0);
        library.select(1);
        library.newChat(); // back to the empty one, not a third
        QCOMPARE(library.chats().size(), 2);
        QCOMPARE(library.currentIndex(), 0);
    }

    void emptyChatLosesItsFile() {
        QTemporaryDir dir;
        ChatLibrary library;
        library.open(dir.path());
        library.current() = askedOnce(QStringLiteral("q"), QStringLiteral("a"));
        library.save();
        library.waitForSaves();
        QCOMPARE(filesIn(dir.path()), 1);
        library.current().messages.clear();
        library.save();
        library.waitForSaves();
        QCOMPARE(filesIn(dir.path()), 0);
    }

    void deleteAndBringBack() {
        QTemporaryDir dir;
        ChatLibrary library;
        library.open(dir.path());
        library.current() = askedOnce(QStringLiteral("first"), QStringLiteral("a"));
        library.save();
        library.newChat();
        library.current() = askedOnce(QStringLiteral("second"), QStringLiteral("b"));
        library.save();
        library.waitForSaves();
        QCOMPARE(filesIn(dir.path()), 2);

        QCOMPARE(library.remove(1), QStringLiteral("first"));
        library.waitForSaves();
        QCOMPARE(filesIn(dir.path()), 1); // in the trash
        QCOMPARE(library.chats().size(), 1);
        QVERIFY(library.hasDeleted());

        QVERIFY(library.restoreDeleted(false));
        QVERIFY(!library.hasDeleted());
        QCOMPARE(library.chats().size(), 2);
        QCOMPARE(library.currentIndex(), 1); // shown where it was
        QCOMPARE(library.current().displayTitle(), QStringLiteral("first"));
        QCOMPARE(filesIn(dir.path()), 2);
        QVERIFY(!library.restoreDeleted(false)); // only once
    }

    void bringBackBesideABusyChat() {
        ChatLibrary library;
        library.current() = askedOnce(QStringLiteral("old"), QStringLiteral("a"));
        library.newChat();
        library.current() = askedOnce(QStringLiteral("answering"), QStringLiteral("b"));
        library.remove(1);
        QCOMPARE(library.current().displayTitle(), QStringLiteral("answering"));
        // A question is being answered: the chat comes back beside it, the current one stays.
        QVERIFY(library.restoreDeleted(true));
        QCOMPARE(library.chats().size(), 2);
        QCOMPARE(library.current().displayTitle(), QStringLiteral("answering"));
    }

    void deletingTheOnlyChatLeavesAnEmptyOne() {
        ChatLibrary library;
        library.current() = askedOnce(QStringLiteral("only"), QStringLiteral("a"));
        library.remove(0);
        QCOMPARE(library.chats().size(), 1);
        QVERIFY(ChatLibrary::isEmpty(library.current()));
        // Brought back, it replaces the empty stand-in.
        QVERIFY(library.restoreDeleted(false));
        QCOMPARE(library.chats().size(), 1);
        QCOMPARE(library.current().displayTitle(), QStringLiteral("only"));
    }

    void documentsSavedOnlyWhenChanged() {
        ChatLibrary library;
        ChatDocument doc;
        doc.path = QStringLiteral("/tmp/report.pdf");
        doc.title = QStringLiteral("report");
        QVERIFY(library.setDocuments({doc}));
        QVERIFY(!library.setDocuments({doc}));
        QCOMPARE(library.current().documents.size(), 1);
    }

    // A document's OCR languages are the chat's (issue #46 §1): written to its file, read back
    // after a restart; a file from before the choice existed, or with a value that is not one
    // of the choices, loads as automatic, which is not written.
    void documentOcrLanguagesInTheChatFile() {
        QTemporaryDir dir;
        {
            ChatLibrary library;
            QVERIFY(library.open(dir.path()).isEmpty());
            library.current() = askedOnce(QStringLiteral("Who audits?"), QStringLiteral("H&R."));
            ChatDocument scanned;
            scanned.path = QStringLiteral("/tmp/policy-scan.pdf");
            scanned.title = QStringLiteral("policy-scan.pdf");
            scanned.ocrLanguages = QStringLiteral("eng+chi_sim");
            ChatDocument plain;
            plain.path = QStringLiteral("/tmp/report.pdf");
            plain.title = QStringLiteral("report.pdf");
            QCOMPARE(plain.ocrLanguages, QStringLiteral("auto"));
            QVERIFY(library.setDocuments({scanned, plain}));
            library.save();
            library.waitForSaves();
        }
        ChatLibrary again;
        QVERIFY(again.open(dir.path()).isEmpty());
        QCOMPARE(again.current().documents.size(), 2);
        QCOMPARE(again.current().documents[0].ocrLanguages, QStringLiteral("eng+chi_sim"));
        QCOMPARE(again.current().documents[1].ocrLanguages, QStringLiteral("auto"));

        QJsonObject json = documentToJson(again.current().documents[0]);
        QCOMPARE(json.value(QStringLiteral("ocr_languages")).toString(),
                 QStringLiteral("eng+chi_sim"));
        QVERIFY(!documentToJson(again.current().documents[1])
                     .contains(QStringLiteral("ocr_languages")));
        json.remove(QStringLiteral("ocr_languages")); // an older file
        QCOMPARE(documentFromJson(json).ocrLanguages, QStringLiteral("auto"));
        json.insert(QStringLiteral("ocr_languages"), QStringLiteral("fra"));
        QCOMPARE(documentFromJson(json).ocrLanguages, QStringLiteral("auto"));
        json.insert(QStringLiteral("ocr_languages"), QStringLiteral("chi_sim"));
        QCOMPARE(documentFromJson(json).ocrLanguages, QStringLiteral("chi_sim"));
    }

    void storageFailureIsReported() {
        QTemporaryDir dir;
        const QString blocked = dir.path() + QStringLiteral("/not-a-folder");
        QFile file(blocked);
        QVERIFY(file.open(QIODevice::WriteOnly)); // a file where the folder should be
        file.close();
        ChatLibrary library;
        library.open(blocked);
        QSignalSpy failed(&library, &ChatLibrary::storageFailed);
        library.current() = askedOnce(QStringLiteral("q"), QStringLiteral("a"));
        library.save();
        library.waitForSaves();
        QTRY_COMPARE(failed.size(), 1);
        QVERIFY(failed.at(0).at(0).toString().startsWith(QStringLiteral("Cannot save the chat")));
    }

    void appendLinksMessages() {
        ChatSession chat = ChatSession::create();
        ChatDocument pdf;
        pdf.path = QStringLiteral("/r.pdf");
        pdf.title = QStringLiteral("r");
        pdf.fingerprint = QStringLiteral("abc");
        chat.documents = {pdf};
        const ChatMessage& q =
            appendMessage(chat, message(ChatMessage::Role::User, QStringLiteral("q")));
        QCOMPARE(q.id, 1);
        QCOMPARE(q.parentId, 0);
        QVERIFY(q.citedDocuments.isEmpty());
        const ChatMessage& a =
            appendMessage(chat, message(ChatMessage::Role::Assistant, QStringLiteral("a")));
        QCOMPARE(a.id, 2);
        QCOMPARE(a.parentId, 1);
        QCOMPARE(a.citedDocuments.size(), 1); // the answer knows which PDF "doc 1" is
        QCOMPARE(a.citedDocuments[0].fingerprint, QStringLiteral("abc"));
    }

    void waitingQuestionGoesLast() {
        ChatSession chat = ChatSession::create();
        appendMessage(chat, message(ChatMessage::Role::User, QStringLiteral("q")));
        appendMessage(chat, message(ChatMessage::Role::Notice, QStringLiteral("Waiting…")));
        QVERIFY(moveWaitingQuestionLast(chat, QStringLiteral("Waited."), {QStringLiteral("r")}));
        QCOMPARE(chat.messages.size(), 2);
        QCOMPARE(chat.messages[0].role, ChatMessage::Role::Notice);
        QCOMPARE(chat.messages[0].text, QStringLiteral("Waited."));
        QCOMPARE(chat.messages[1].text, QStringLiteral("q"));
        QCOMPARE(chat.messages[1].attachments, QStringList{QStringLiteral("r")});
        QCOMPARE(chat.messages[1].parentId, chat.messages[0].id);
        // Not waiting (no notice last): nothing moves.
        QVERIFY(!moveWaitingQuestionLast(chat, QStringLiteral("x"), {}));
    }

    void regenerateKeepsOrDropsTheAnswer() {
        ChatSession kept = askedOnce(QStringLiteral("q"), QStringLiteral("an answer"));
        QVERIFY(prepareRegenerate(kept));
        QCOMPARE(kept.messages.size(), 1);
        QCOMPARE(kept.otherVersions.size(), 1);                          // kept as a version
        ChatSession dropped = askedOnce(QStringLiteral("q"), QString()); // failed, empty
        QVERIFY(prepareRegenerate(dropped));
        QCOMPARE(dropped.messages.size(), 1);
        QCOMPARE(dropped.otherVersions.size(), 0);
        ChatSession none = ChatSession::create();
        QVERIFY(!prepareRegenerate(none));
    }

    // The line under an answer leaves out what did not happen (issue #48 §13): stopped while
    // its prompt was read, there is no first token and no decode speed to show as zeros.
    void statsLineShowsWhatHappened() {
        MessageStats done;
        done.promptTokens = 1200;
        done.reusedTokens = 1010;
        done.ttftMs = 840;
        done.prefillTps = 95.5;
        done.decodeTps = 12.24;
        done.generatedTokens = 64;
        done.stopReason = QStringLiteral("eos");
        QCOMPARE(statsLine(done), QStringLiteral("1200 prompt tokens (1010 reused) · TTFT 840 ms · "
                                                 "prefill 95.5 t/s · decode 12.2 t/s · 64 tokens · "
                                                 "finished"));
        MessageStats stopped;
        stopped.promptTokens = 3000;
        stopped.prefillTps = 80;
        stopped.stopReason = QStringLiteral("cancelled");
        const QString line = statsLine(stopped);
        QCOMPARE(line,
                 QStringLiteral("3000 prompt tokens (0 reused) · prefill 80.0 t/s · 0 tokens · "
                                "stopped"));
        QVERIFY(!line.contains(QStringLiteral("TTFT")));
        MessageStats nothing;
        nothing.stopReason = QStringLiteral("cancelled");
        QCOMPARE(statsLine(nothing), QStringLiteral("stopped before an answer"));
        // A first vision answer: most of its TTFT was the image being encoded.
        MessageStats vision = done;
        vision.ttftMs = 9600;
        vision.imageMs = 8900;
        QVERIFY2(
            statsLine(vision).contains(QStringLiteral("TTFT 9600 ms (8900 ms encoding images)")),
            qPrintable(statsLine(vision)));
        // Why it ended is said in words (issue #48 §14: "eos" was shown as is, untranslated).
        QCOMPARE(stopReasonText(QStringLiteral("length")),
                 QStringLiteral("stopped at the length limit"));
        QCOMPARE(stopReasonText(QStringLiteral("stop")),
                 QStringLiteral("stopped at a stop sequence"));
        QCOMPARE(stopReasonText(QStringLiteral("content_filter")),
                 QStringLiteral("content_filter"));
    }

    void contextNoteOnTheLastQuestion() {
        ChatSession chat = askedOnce(QStringLiteral("q1"), QStringLiteral("a1"));
        appendMessage(chat, message(ChatMessage::Role::User, QStringLiteral("q2")));
        QVERIFY(setQuestionContextNote(chat, QStringLiteral("pages 3-7"), 1));
        QCOMPARE(chat.messages[2].contextNote, QStringLiteral("pages 3-7"));
        QCOMPARE(chat.messages[2].leftOutTurns, 1);
        QVERIFY(chat.messages[0].contextNote.isEmpty());
        QVERIFY(!setQuestionContextNote(chat, QStringLiteral("pages 3-7"), 1)); // unchanged
    }
};

QTEST_GUILESS_MAIN(TestChatLibrary)
#include "test_chat_library.moc"
