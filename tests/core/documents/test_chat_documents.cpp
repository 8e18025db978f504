// The shown chat's documents without widgets (core/documents/chat_documents.h, issue #45 §1):
// real files opened (an unsupported one reported), reordered, pinned, removed; another chat's
// list shown and the first one back (found read, not read again); a missing file and a file
// whose fingerprint differs from the saved one are problems, and locating the file clears it.
#include <QCoreApplication>
#include <QFile>
#include <QSignalSpy>
#include <QtTest>

#include "core/documents/chat_documents.h"
#include "core/documents/loaded_documents.h"
#include "support/test_support.h"

using folio::ui::ChatDocument;
using folio::ui::ChatDocuments;
using folio::ui::Document;

namespace {

QString sample(const QString& name) {
    return folio::test::builtProgram(QStringLiteral("generated/samples/") + name);
}

bool settled(const ChatDocuments& docs) {
    return docs.pendingLoads() == 0;
}

} // namespace

// The generated samples are the test's data: missing, they fail the test under CI=true.
#define REQUIRE_SAMPLE(path)                                                                       \
    do {                                                                                           \
        if (!QFile::exists(path)) {                                                                \
            if (folio::test::isCi())                                                               \
                QFAIL(qPrintable(                                                                  \
                    QStringLiteral("%1 missing under CI=true (build folio_samples)").arg(path)));  \
            QSKIP("generated samples missing: build folio_samples");                               \
        }                                                                                          \
    } while (false)

class TestChatDocuments : public QObject {
    Q_OBJECT
private slots:
    // OCR of scanned pages has its own suites (test_document_ocr, test_documents_ocr).
    void initTestCase() { qputenv("FOLIO_OCR", "off"); }

    void openMovePinRemove() {
        const QString report = sample(QStringLiteral("sample-report.pdf"));
        const QString chart = sample(QStringLiteral("revenue-chart.png"));
        REQUIRE_SAMPLE(report);
        REQUIRE_SAMPLE(chart);
        ChatDocuments docs;
        QSignalSpy failed(&docs, &ChatDocuments::loadFailed);
        QSignalSpy edited(&docs, &ChatDocuments::documentsEdited);
        QSignalSpy inserted(&docs, &ChatDocuments::rowInserted);
        QSignalSpy busy(&docs, &ChatDocuments::busyChanged);
        const QString text = folio::test::scratchDir(QStringLiteral("chat-documents-open")) +
                             QStringLiteral("/notes.txt");
        QCOMPARE(docs.openFiles({report, text, chart}), -1);
        QCOMPARE(failed.size(), 1);
        QVERIFY(failed.at(0).at(0).toString().contains(QStringLiteral("notes.txt")));
        QCOMPARE(docs.count(), 2);
        QCOMPARE(inserted.size(), 2);
        QCOMPARE(docs.pendingLoads(), 2);
        QCOMPARE(docs.loadingTitles(), QStringList({QStringLiteral("sample-report.pdf"),
                                                    QStringLiteral("revenue-chart.png")}));
        QVERIFY(!busy.isEmpty() && busy.first().at(0).toBool());
        QTRY_VERIFY_WITH_TIMEOUT(settled(docs), 120000);
        QVERIFY(!busy.last().at(0).toBool());
        QVERIFY(!edited.isEmpty());

        QList<ChatDocument> kept = docs.chatDocuments();
        QCOMPARE(kept.size(), 2);
        QCOMPARE(kept[0].path, QFileInfo(report).absoluteFilePath());
        QCOMPARE(kept[0].pageCount, 8);
        QCOMPARE(kept[0].fingerprint.size(), 64); // SHA-256, hex
        QVERIFY(!kept[0].isImage);
        QCOMPARE(kept[1].title, QStringLiteral("revenue-chart.png"));
        QVERIFY(kept[1].isImage);
        QCOMPARE(docs.documents()[0].state, Document::State::Ready);
        QCOMPARE(docs.documents()[0].pageTexts.size(), 8);
        const ChatDocuments::Totals totals = docs.totals();
        QCOMPARE(totals.pages, 8 + docs.documents()[1].pageCount);
        QVERIFY(!totals.exact);
        QCOMPARE(totals.tokens, docs.estimatedTokens());
        QVERIFY(totals.tokens > 500);

        // The same file again is not added twice: its row is shown.
        edited.clear();
        QCOMPARE(docs.openFiles({report}), 0);
        QCOMPARE(docs.count(), 2);
        QVERIFY(edited.isEmpty());

        // Reordered, pinned, scanned pages off: what the chat keeps follows.
        QSignalSpy moved(&docs, &ChatDocuments::rowMoved);
        docs.move(1, -1);
        QCOMPARE(moved.size(), 1);
        QCOMPARE(moved.at(0).at(0).toInt(), 1);
        QCOMPARE(moved.at(0).at(1).toInt(), 0);
        docs.move(0, -1); // nowhere to go
        QCOMPARE(moved.size(), 1);
        kept = docs.chatDocuments();
        QCOMPARE(kept[0].title, QStringLiteral("revenue-chart.png"));
        QCOMPARE(kept[1].pageCount, 8);
        QCOMPARE(docs.documents()[1].pageCount, 8);
        docs.setPinnedPages(1, QStringLiteral(" 1-2, 7 "));
        docs.setReadScannedPages(1, false);
        QCOMPARE(docs.chatDocuments()[1].pinnedPages, QStringLiteral("1-2, 7"));
        QVERIFY(!docs.chatDocuments()[1].readScannedPages);
        QCOMPARE(edited.size(), 3);

        QSignalSpy removed(&docs, &ChatDocuments::rowRemoved);
        docs.remove(0);
        docs.remove(5); // no such row
        QCOMPARE(removed.size(), 1);
        QCOMPARE(docs.count(), 1);
        QCOMPARE(docs.chatDocuments()[0].pageCount, 8);
        QCOMPARE(docs.chatDocuments()[0].pinnedPages, QStringLiteral("1-2, 7"));
        QCOMPARE(docs.problem(0), ChatDocuments::Problem::None);

        // The removal undone (issue #48 §13): the chart is back in its place, found read.
        QVERIFY(docs.canRestoreRemoved());
        QVERIFY(docs.restoreRemoved());
        QVERIFY(!docs.restoreRemoved()); // once
        QCOMPARE(docs.count(), 2);
        QTRY_VERIFY_WITH_TIMEOUT(settled(docs), 60000);
        QCOMPARE(docs.chatDocuments()[0].title, QStringLiteral("revenue-chart.png"));
        QCOMPARE(docs.chatDocuments()[1].pinnedPages, QStringLiteral("1-2, 7"));
        QCOMPARE(docs.documents()[0].state, Document::State::Ready);
        // Another chat's documents take the offer away.
        docs.remove(1);
        QVERIFY(docs.canRestoreRemoved());
        docs.setDocuments({});
        QVERIFY(!docs.canRestoreRemoved());
        QVERIFY(!docs.restoreRemoved());
    }

    void anotherChatAndBack() {
        const QString report = sample(QStringLiteral("sample-report.pdf"));
        const QString longReport = sample(QStringLiteral("long-report-300.pdf"));
        REQUIRE_SAMPLE(report);
        REQUIRE_SAMPLE(longReport);
        ChatDocuments docs;
        docs.openFiles({report});
        QTRY_VERIFY_WITH_TIMEOUT(settled(docs) && docs.count() == 1, 120000);
        const QList<ChatDocument> first = docs.chatDocuments();
        QCOMPARE(first.size(), 1);

        ChatDocument other;
        other.path = QFileInfo(longReport).absoluteFilePath();
        other.title = QStringLiteral("Long report");
        other.pinnedPages = QStringLiteral("300");
        QSignalSpy reset(&docs, &ChatDocuments::rowsReset);
        QSignalSpy edited(&docs, &ChatDocuments::documentsEdited);
        docs.setDocuments({other});
        QCOMPARE(reset.size(), 1);
        QVERIFY(edited.isEmpty()); // showing a chat's list is no edit of it
        QCOMPARE(docs.count(), 1);
        QCOMPARE(docs.loadingTitles(), QStringList{QStringLiteral("Long report")});
        QTRY_VERIFY_WITH_TIMEOUT(settled(docs), 120000);
        QCOMPARE(docs.documents()[0].pageCount, 300);
        const QList<ChatDocument> second = docs.chatDocuments();
        QCOMPARE(second[0].pageCount, 300);
        QCOMPARE(second[0].pinnedPages, QStringLiteral("300"));
        QCOMPARE(second[0].fingerprint.size(), 64);

        // Back to the first chat: its document is found read, not read again.
        const int reads = docs.loadedDocuments()->readsStarted();
        docs.setDocuments(first);
        QCOMPARE(docs.count(), 1);
        QTRY_VERIFY_WITH_TIMEOUT(settled(docs), 60000);
        QCOMPARE(docs.loadedDocuments()->readsStarted(), reads);
        QCOMPARE(docs.chatDocuments(), first);
        QCOMPARE(docs.documents()[0].pageCount, 8);

        docs.setDocuments({});
        QCOMPARE(docs.count(), 0);
        QVERIFY(docs.chatDocuments().isEmpty());
    }

    void missingAndChangedFiles() {
        const QString report = sample(QStringLiteral("sample-report.pdf"));
        REQUIRE_SAMPLE(report);
        const QString dir = folio::test::scratchDir(QStringLiteral("chat-documents-problems"));
        const QString copy = dir + QStringLiteral("/report.pdf");
        QVERIFY(QFile::copy(report, copy));

        ChatDocument gone;
        gone.path = dir + QStringLiteral("/gone.pdf");
        gone.title = QStringLiteral("gone.pdf");
        gone.fingerprint = QString(64, QLatin1Char('a'));
        gone.pageCount = 12;
        ChatDocument changed;
        changed.path = copy;
        changed.title = QStringLiteral("report.pdf");
        changed.fingerprint = QString(64, QLatin1Char('b')); // not what the file is now
        changed.pageCount = 3;

        ChatDocuments docs;
        QSignalSpy problems(&docs, &ChatDocuments::problemsChanged);
        QSignalSpy failed(&docs, &ChatDocuments::loadFailed);
        docs.setDocuments({gone, changed});
        QTRY_VERIFY_WITH_TIMEOUT(settled(docs), 120000);
        QVERIFY(!problems.isEmpty());
        QVERIFY(failed.isEmpty()); // a kept document's trouble is the chat's, not an error
        QCOMPARE(docs.problem(0), ChatDocuments::Problem::Missing);
        QVERIFY2(docs.problemText(0).contains(QStringLiteral("gone.pdf")),
                 qPrintable(docs.problemText(0)));
        QVERIFY(docs.problemText(0).contains(gone.path));
        QCOMPARE(docs.problem(1), ChatDocuments::Problem::Changed);
        QVERIFY(docs.problemText(1).contains(QStringLiteral("report.pdf")));
        // The chat keeps what it had until the user says otherwise.
        QCOMPARE(docs.chatDocuments(), QList<ChatDocument>({gone, changed}));
        QCOMPARE(docs.documents()[1].pageCount, 8); // the file as it is now

        // Located: the missing one is the sample now, in the same place, and no problem.
        problems.clear();
        docs.locate(0, report);
        QCOMPARE(docs.count(), 2);
        QCOMPARE(docs.chatDocuments()[0].path, QFileInfo(report).absoluteFilePath());
        QCOMPARE(docs.chatDocuments()[1].path, copy);
        QTRY_VERIFY_WITH_TIMEOUT(settled(docs), 120000);
        QCOMPARE(docs.problem(0), ChatDocuments::Problem::None);
        QCOMPARE(docs.chatDocuments()[0].pageCount, 8);
        QCOMPARE(docs.chatDocuments()[0].fingerprint, docs.documents()[0].fingerprint);
        QCOMPARE(docs.problem(1), ChatDocuments::Problem::Changed);
        QVERIFY(!problems.isEmpty());

        // Removing the changed one leaves no problem.
        docs.remove(1);
        QCOMPARE(docs.count(), 1);
        QCOMPARE(docs.problemText(0), QString());
    }

    void linesByFingerprint() {
        const QString report = sample(QStringLiteral("sample-report.pdf"));
        REQUIRE_SAMPLE(report);
        ChatDocuments docs;
        docs.openFiles({report});
        QTRY_VERIFY_WITH_TIMEOUT(settled(docs) && docs.count() == 1, 120000);
        const QString fingerprint = docs.documents()[0].fingerprint;
        QSignalSpy changed(&docs, &ChatDocuments::rowChanged);
        docs.setReadingStatus(fingerprint, QStringLiteral("reading 40%"));
        docs.setReadingStatus(fingerprint, QStringLiteral("reading 40%")); // no change
        docs.setTokenLine(fingerprint, QStringLiteral("12,345 tokens · fits"));
        QCOMPARE(changed.size(), 2);
        QCOMPARE(docs.readingStatus(fingerprint), QStringLiteral("reading 40%"));
        QVERIFY(docs.hasTokenLine(fingerprint));
        QVERIFY(!docs.totals().exact);
        docs.setExactTokens(fingerprint, 4321);
        QCOMPARE(docs.totals().tokens, 4321);
        QVERIFY(docs.totals().exact);
        QCOMPARE(docs.totals().pages, 8);
    }
};

QTEST_MAIN(TestChatDocuments)
#include "test_chat_documents.moc"
