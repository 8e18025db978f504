// Big PDFs do not hold up the window (issue #48 §6): a document is read once for every chat.
// Switching away while a 300-page report is read does not restart the read; every later visit to
// its chat finds its pages at once (no read started); removing it while it is read stops the
// read. In the real main window.
#include <QElapsedTimer>
#include <QPushButton>
#include <QSignalSpy>
#include <QtTest>

#include "chat/chat_pane.h"
#include "core/documents/loaded_documents.h"
#include "documents/documents_pane.h"
#include "main_window.h"
#include "notifications/notification_area.h"
#include "support/test_support.h"
#include "ui/workbench_parts.h"

using namespace folio::ui;

namespace {

int chatIndex(const ChatPane* chat, const QString& id) {
    for (int i = 0; i < chat->chats().size(); ++i)
        if (chat->chats()[i].id == id)
            return i;
    return -1;
}

bool allReady(const DocumentsPane* pane) {
    const QList<Document>& docs = pane->documents();
    return !docs.isEmpty() && std::all_of(docs.cbegin(), docs.cend(), [](const Document& d) {
        return d.state == Document::State::Ready;
    });
}

} // namespace

class TestDocumentVisits : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        folio::test::useScratchSettings(QStringLiteral("document-visits-xdg"),
                                        QStringLiteral("test_document_visits"));
    }

    void switchingChatsReadsNothingAgain() {
        const QString longReport =
            folio::test::builtProgram(QStringLiteral("generated/samples/long-report-300.pdf"));
        QVERIFY2(QFile::exists(longReport), "build folio_samples first");
        MainWindow w;
        w.resize(1280, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        ChatPane* chat = w.chatPane();
        DocumentsPane* docs = w.documentsPane();
        LoadedDocuments* loaded = docs->loadedDocuments();
        chat->newChat();
        const QString reportChat = chat->currentChat().id;
        w.openDocuments({longReport});
        QCOMPARE(loaded->readsStarted(), 1);
        QVERIFY(loaded->isReading(longReport));

        // Away while it is read, and back: the same read goes on.
        chat->newChat();
        QVERIFY(chat->currentChat().id != reportChat);
        QCOMPARE(docs->documents().size(), 0);
        QVERIFY(loaded->isReading(longReport));
        chat->selectChat(chatIndex(chat, reportChat));
        QCOMPARE(docs->documents().size(), 1);
        QTRY_VERIFY_WITH_TIMEOUT(allReady(docs), 120000);
        QCOMPARE(docs->documents().first().pageCount, 300);
        QCOMPARE(loaded->readsStarted(), 1);

        // Later visits find the pages at once.
        for (int visit = 0; visit < 3; ++visit) {
            chat->newChat();
            QCOMPARE(docs->documents().size(), 0);
            QElapsedTimer clock;
            clock.start();
            chat->selectChat(chatIndex(chat, reportChat));
            QTRY_VERIFY_WITH_TIMEOUT(allReady(docs), 5000);
            QVERIFY2(clock.elapsed() < 1000, qPrintable(QString::number(clock.elapsed())));
            QCOMPARE(docs->documents().first().pageTexts.size(), 300);
        }
        QCOMPARE(loaded->readsStarted(), 1);
        chat->waitForSaves();
    }

    void removingADocumentStopsItsRead() {
        const QString longReport =
            folio::test::builtProgram(QStringLiteral("generated/samples/long-report-300.pdf"));
        QTemporaryDir dir;
        const QString copy = dir.filePath(QStringLiteral("annual-report.pdf"));
        QVERIFY(QFile::copy(longReport, copy));
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.chatPane()->newChat();
        DocumentsPane* docs = w.documentsPane();
        QSignalSpy finished(docs->loadedDocuments(), &LoadedDocuments::finished);
        w.openDocuments({copy});
        QVERIFY(docs->loadedDocuments()->isReading(copy));
        docs->removeDocument(0);
        QCOMPARE(docs->documents().size(), 0);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 60000);
        QVERIFY(finished.at(0).at(2).toBool()); // cancelled
        QVERIFY(!docs->loadedDocuments()->find(copy));
        QTRY_VERIFY(!w.isBusy());
        w.chatPane()->waitForSaves();
    }

    // A removed document comes back with Undo (issue #48 §13), in its place with its pinned
    // pages; another chat takes the offer away.
    void aRemovedDocumentComesBackWithUndo() {
        const QString report =
            folio::test::builtProgram(QStringLiteral("generated/samples/sample-report.pdf"));
        const QString chart =
            folio::test::builtProgram(QStringLiteral("generated/samples/revenue-chart.png"));
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.chatPane()->newChat();
        DocumentsPane* docs = w.documentsPane();
        w.openDocuments({report, chart});
        QTRY_VERIFY_WITH_TIMEOUT(allReady(docs), 60000);
        docs->setPinnedPages(0, QStringLiteral("2-3"));
        const QList<ChatDocument> before = w.chatPane()->currentChat().documents;
        QCOMPARE(before.size(), 2);
        const QString reportTitle = docs->documents()[0].title; // the PDF's own title
        const QString chartTitle = docs->documents()[1].title;
        docs->removeDocument(0);
        QCOMPARE(docs->documents().size(), 1);
        NotificationArea* notices = w.chatPane()->notifications();
        QVERIFY2(notices->texts().contains(
                     QStringLiteral("Removed “%1” from the chat.").arg(reportTitle)),
                 qPrintable(notices->texts().join(QLatin1Char('|'))));
        QPushButton* undo = nullptr;
        for (QPushButton* b : notices->findChildren<QPushButton*>())
            if (b->text() == QStringLiteral("Undo"))
                undo = b;
        QVERIFY(undo);
        undo->click();
        QTRY_VERIFY_WITH_TIMEOUT(allReady(docs), 60000);
        QCOMPARE(docs->documents().size(), 2);
        QCOMPARE(docs->documents().first().pageCount, 8);
        QCOMPARE(w.chatPane()->currentChat().documents, before); // same place, same pins
        // Removed again, then another chat: no Undo offered any more.
        docs->removeDocument(1);
        QCOMPARE(
            notices->texts().count(QStringLiteral("Removed “%1” from the chat.").arg(chartTitle)),
            1);
        w.chatPane()->newChat();
        QTRY_VERIFY(!notices->texts().contains(
            QStringLiteral("Removed “%1” from the chat.").arg(chartTitle)));
        w.chatPane()->waitForSaves();
    }
};

QTEST_MAIN(TestDocumentVisits)
#include "test_document_visits.moc"
