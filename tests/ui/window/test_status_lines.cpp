// The window's status lines say what is true (issue #48 §10): an error of a failed load goes
// once a load succeeds and is not shown twice; "Loading with …" leaves the status bar when the
// load ends; a failed load says no model is loaded; the context gauge shows the chat's last
// answer against the new model's context, and 0 in an empty chat. In the real main window.
#include <QLabel>
#include <QProgressBar>
#include <QSignalSpy>
#include <QStatusBar>
#include <QtTest>

#include "chat/chat_pane.h"
#include "main_window.h"
#include "notifications/notification_area.h"
#include "support/test_support.h"
#include "ui/workbench_parts.h"

using namespace folio::ui;

namespace {

QString demoModel() {
    return folio::test::builtProgram(QStringLiteral("generated/models/demo-deepseek2.gguf"));
}

int errorsShown(const MainWindow& w, const QString& part) {
    int n = 0;
    for (const QString& t : w.chatPane()->notifications()->texts())
        n += t.contains(part) ? 1 : 0;
    return n;
}

QString modelLine(const MainWindow& w) {
    return w.findChild<QLabel*>(QStringLiteral("statusModel"))->text();
}

} // namespace

class TestStatusLines : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        folio::test::useScratchSettings(QStringLiteral("status-lines-xdg"),
                                        QStringLiteral("test_status_lines"));
    }

    void loadErrorsAreShownOnceAndGoOnSuccess() {
        QVERIFY2(QFile::exists(demoModel()), "build the demo model first");
        const QString dir = folio::test::scratchDir(QStringLiteral("status-lines-files"));
        const QString notAModel = dir + QStringLiteral("/notes.gguf");
        QFile f(notAModel);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("these are notes, not a model");
        f.close();

        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.openModel(notAModel);
        QTRY_VERIFY(!w.isBusy());
        w.openModel(notAModel); // the same mistake again
        QTRY_VERIFY(!w.isBusy());
        QCOMPARE(errorsShown(w, QStringLiteral("Cannot open the model")), 1);
        QCOMPARE(modelLine(w), QStringLiteral("No model loaded"));

        w.openModel(demoModel());
        QTRY_VERIFY_WITH_TIMEOUT(w.modelReady(), 60000);
        QTRY_VERIFY(!w.isBusy());
        QCOMPARE(errorsShown(w, QStringLiteral("Cannot open the model")), 0); // stale: gone
        QVERIFY2(modelLine(w).startsWith(QStringLiteral("Model: ")), qPrintable(modelLine(w)));
        // "Loading with …" does not outlive the load.
        QVERIFY2(!w.statusBar()->currentMessage().startsWith(QStringLiteral("Loading with")),
                 qPrintable(w.statusBar()->currentMessage()));
        w.chatPane()->waitForSaves();
    }

    void theGaugeShowsTheChatsLastAnswer() {
        ChatPane pane;
        pane.setModelReady(true, QString());
        pane.appendMessage(ChatMessage::Role::User, QStringLiteral("q"));
        pane.setWork(pane.currentChat().id, ChatLibrary::Work::Answering);
        pane.appendMessage(ChatMessage::Role::Assistant, QStringLiteral("a"));
        MessageStats stats;
        stats.promptTokens = 184;
        stats.generatedTokens = 8;
        pane.setLastStats(pane.currentChat().id, stats);
        pane.setWork(pane.currentChat().id, ChatLibrary::Work::None);
        // A model is loaded (at start, or another one): the gauge keeps the chat's 192 tokens.
        pane.setContextLimit(4096);
        auto* gauge = pane.findChild<QProgressBar*>(QStringLiteral("contextGauge"));
        QVERIFY(gauge);
        QVERIFY2(gauge->format().contains(QStringLiteral("192 / 4,096")),
                 qPrintable(gauge->format()));
        // An empty new chat starts at 0.
        pane.newChat();
        QVERIFY2(gauge->format().contains(QStringLiteral("0 / 4,096")),
                 qPrintable(gauge->format()));
        QVERIFY(!gauge->format().contains(QStringLiteral("192")));
    }
};

QTEST_MAIN(TestStatusLines)
#include "test_status_lines.moc"
