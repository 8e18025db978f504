// A new chat starts with nothing of the last chat (issue #48 §3): after a chat with a document,
// Ctrl+N's chat shows no chip for it, no "Opening …" in the preview, and a question there is not
// labelled with it; going back to the first chat brings its document (and chip) back. In the
// real main window.
#include <QAction>
#include <QLabel>
#include <QSignalSpy>
#include <QtTest>

#include "chat/chat_pane.h"
#include "documents/documents_pane.h"
#include "main_window.h"
#include "support/test_support.h"

using namespace folio::ui;

class TestChatSwitch : public QObject {
    Q_OBJECT

    static int chips(const MainWindow& w) {
        return int(w.findChildren<QLabel*>(QStringLiteral("attachmentChip")).size());
    }

private slots:
    void initTestCase() {
        const QString xdg = folio::test::scratchDir(QStringLiteral("chat-switch-xdg"));
        qputenv("XDG_CONFIG_HOME", (xdg + QStringLiteral("/config")).toUtf8());
        qputenv("XDG_DATA_HOME", (xdg + QStringLiteral("/data")).toUtf8());
        qputenv("XDG_CACHE_HOME", (xdg + QStringLiteral("/cache")).toUtf8());
        QCoreApplication::setOrganizationName(QStringLiteral("FolioTests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_chat_switch"));
    }

    void newChatLeavesTheLastChatsDocumentBehind() {
        const QString report =
            folio::test::builtProgram(QStringLiteral("generated/samples/sample-report.pdf"));
        QVERIFY2(QFile::exists(report), "build folio_samples first");
        MainWindow w;
        w.resize(1280, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        ChatPane* chat = w.chatPane();
        chat->newChat();
        QSignalSpy loaded(w.documentsPane(), &DocumentsPane::documentLoaded);
        w.openDocuments({report});
        QTRY_COMPARE_WITH_TIMEOUT(loaded.size(), 1, 60000);
        QTRY_COMPARE(chips(w), 1);
        const QString first = chat->currentChat().id;
        QCOMPARE(chat->currentChat().documents.size(), 1);

        // Ctrl+N, as the user does.
        QAction* newChat = w.findChild<QAction*>(QStringLiteral("actionNewChat"));
        QVERIFY(newChat);
        newChat->trigger();
        QVERIFY(chat->currentChat().id != first);
        QCOMPARE(w.documentsPane()->documents().size(), 0);
        QTRY_COMPARE(chips(w), 0);
        auto* empty = w.findChild<QLabel*>(QStringLiteral("documentsEmptyLabel"));
        QVERIFY(empty);
        QVERIFY2(!empty->text().contains(QStringLiteral("Opening")), qPrintable(empty->text()));
        QVERIFY2(empty->text().startsWith(QStringLiteral("Open a PDF")), qPrintable(empty->text()));
        // A question here names no document.
        chat->appendMessage(ChatMessage::Role::User, QStringLiteral("Anything?"));
        QVERIFY(chat->messages().last().attachments.isEmpty());
        // Some time later still nothing of the other chat arrives (no late load, no late chip).
        QTest::qWait(500);
        QCOMPARE(chips(w), 0);
        QVERIFY(!empty->text().contains(QStringLiteral("Opening")));

        // Back to the first chat: its document and chip come back.
        int index = -1;
        for (int i = 0; i < chat->chats().size(); ++i)
            if (chat->chats()[i].id == first)
                index = i;
        QVERIFY(index >= 0);
        chat->selectChat(index);
        QTRY_COMPARE_WITH_TIMEOUT(w.documentsPane()->documents().size(), 1, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(chips(w), 1, 60000);
        chat->waitForSaves();
    }
};

QTEST_MAIN(TestChatSwitch)
#include "test_chat_switch.moc"
