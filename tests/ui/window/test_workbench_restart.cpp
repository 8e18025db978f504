// Issue #22 acceptance through the real window: a chat's document is read into the KV cache in
// the background and saved as a document cache; after a restart the chat reopens its document,
// the cache is loaded instead of reading again, and the first question reuses at least the
// document's tokens (counted independently by the tokenizer, TokenCountCache).
#include <QPainter>
#include <QPdfWriter>
#include <QSignalSpy>
#include <QtTest>

#include "chat/chat_pane.h"
#include "doc_cache/cache_index.h"
#include "doc_cache/reading_presenter.h"
#include "documents/documents_pane.h"
#include "main_window.h"
#include "support/test_support.h"

using namespace folio::ui;

namespace {

QString demoModel() {
    return folio::test::builtProgram(QStringLiteral("generated/models/demo-deepseek2.gguf"));
}

// A short report that fits the demo model's 4,096-token context with room for a question
// (the 8-page sample report does not: its pages are chosen per question, nothing is read ahead).
void writeReport(const QString& path, int pages) {
    QPdfWriter writer(path);
    writer.setTitle(QStringLiteral("Quarterly Report"));
    QPainter p(&writer);
    for (int i = 1; i <= pages; ++i) {
        if (i > 1)
            writer.newPage();
        p.setFont(QFont(QStringLiteral("Sans"), 11));
        for (int line = 0; line < 12; ++line)
            p.drawText(QRect(200, 200 + line * 300, 9000, 280),
                       QStringLiteral("Page %1, line %2: revenue rose %3 percent in region %4.")
                           .arg(i)
                           .arg(line + 1)
                           .arg((i * 7 + line * 3) % 40)
                           .arg(QChar(u'A' + line)));
    }
}

// The status bar's line saying the background reading ended ("" : not yet).
QString readingDone(const QSignalSpy& lines) {
    for (const QList<QVariant>& l : lines) {
        const QString t = l.first().toString();
        if (t.startsWith(QStringLiteral("Documents read")) ||
            t.startsWith(QStringLiteral("Documents loaded from the cache")))
            return t;
    }
    return QString();
}

} // namespace

class TestWorkbenchRestart : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        const QString xdg = folio::test::scratchDir(QStringLiteral("workbench-restart-xdg"));
        qputenv("XDG_CONFIG_HOME", (xdg + QStringLiteral("/config")).toUtf8());
        qputenv("XDG_DATA_HOME", (xdg + QStringLiteral("/data")).toUtf8());
        qputenv("XDG_CACHE_HOME", (xdg + QStringLiteral("/cache")).toUtf8());
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
        QCoreApplication::setOrganizationName(QStringLiteral("FolioTests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_workbench_restart"));
        QVERIFY2(QFile::exists(demoModel()), "no demo model (built with the tests)");
    }

    void firstQuestionAfterARestartReusesTheDocumentCache() {
        const QString dir = folio::test::scratchDir(QStringLiteral("workbench-restart"));
        const QString report = dir + QStringLiteral("/report.pdf");
        QFile::remove(report);
        writeReport(report, 3);
        QString chatId;
        {
            MainWindow w;
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            auto* reading = w.findChild<ReadingPresenter*>();
            QVERIFY(reading);
            QSignalSpy lines(reading, &ReadingPresenter::statusLine);
            w.chatPane()->newChat();
            chatId = w.chatPane()->currentChat().id;
            w.openDocuments({report});
            w.openModel(demoModel());
            QTRY_VERIFY_WITH_TIMEOUT(!w.isBusy(), 60000);
            QTRY_VERIFY_WITH_TIMEOUT(w.modelReady(), 60000);
            QTRY_VERIFY_WITH_TIMEOUT(!readingDone(lines).isEmpty(), 120000);
            const QString line = readingDone(lines);
            QVERIFY2(line.startsWith(QStringLiteral("Documents read")), qPrintable(line));
            // The snapshot and its entry are in the cache folder.
            const QList<CacheEntry> entries = CacheIndex(CacheIndex::defaultDir()).entries();
            QCOMPARE(entries.size(), 1);
            QVERIFY(QFile::exists(CacheIndex(CacheIndex::defaultDir()).pathOf(entries.first())));
            w.close();
            w.chatPane()->waitForSaves();
        }

        // Restart: the chat reopens its document and the model loads the cache.
        MainWindow again;
        again.show();
        QVERIFY(QTest::qWaitForWindowExposed(&again));
        auto* reading = again.findChild<ReadingPresenter*>();
        QSignalSpy lines(reading, &ReadingPresenter::statusLine);
        for (int i = 0; i < again.chatPane()->chats().size(); ++i)
            if (again.chatPane()->chats()[i].id == chatId)
                again.chatPane()->selectChat(i);
        QCOMPARE(again.chatPane()->currentChat().id, chatId);
        QTRY_VERIFY_WITH_TIMEOUT(!again.isBusy(), 60000);
        QCOMPARE(again.documentsPane()->documents().size(), 1);
        const Document doc = again.documentsPane()->documents().first();
        QCOMPARE(doc.state, Document::State::Ready);
        QCOMPARE(doc.path, report);
        again.openModel(demoModel());
        QTRY_VERIFY_WITH_TIMEOUT(again.modelReady(), 60000);
        QTRY_VERIFY_WITH_TIMEOUT(!readingDone(lines).isEmpty(), 180000);
        const QString line = readingDone(lines);
        QVERIFY2(line.startsWith(QStringLiteral("Documents loaded from the cache")),
                 qPrintable(line));
        const qint64 documentTokens = reading->tokenCounts()->cached(doc);
        QVERIFY2(documentTokens > 500, qPrintable(QString::number(documentTokens)));

        QSignalSpy done(&again, &MainWindow::answerFinished);
        again.ask(QStringLiteral("What was revenue?"));
        QTRY_VERIFY_WITH_TIMEOUT(!done.isEmpty(), 120000);
        const ChatMessage answer = again.chatPane()->messages().last();
        QCOMPARE(answer.role, ChatMessage::Role::Assistant);
        QVERIFY2(answer.stats.reusedTokens >= documentTokens,
                 qPrintable(QStringLiteral("reused %1 of the document's %2 tokens (prompt %3)")
                                .arg(answer.stats.reusedTokens)
                                .arg(documentTokens)
                                .arg(answer.stats.promptTokens)));
        qInfo("after the restart: reused %lld of %lld prompt tokens (document %lld)",
              answer.stats.reusedTokens, answer.stats.promptTokens, documentTokens);
        again.chatPane()->waitForSaves();
    }
};

QTEST_MAIN(TestWorkbenchRestart)
#include "test_workbench_restart.moc"
