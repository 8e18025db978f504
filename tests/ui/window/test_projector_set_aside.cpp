// A vision projector remembered from the last run must not stop another model from loading
// (issue #48 §4): the model loads and is ready, the projector is set aside with a note saying
// why and what to do, and the chat takes no images. In the real main window.
#include <QSignalSpy>
#include <QtTest>

#include "chat/chat_pane.h"
#include "main_window.h"
#include "notifications/notification_area.h"
#include "support/test_support.h"
#include "ui/workbench_parts.h"

using namespace folio::ui;

class TestProjectorSetAside : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        folio::test::useScratchSettings(QStringLiteral("projector-set-aside-xdg"),
                                        QStringLiteral("test_projector_set_aside"));
    }

    void theModelLoadsWithoutTheProjector() {
        FOLIO_REQUIRE_CONFORMANCE(dir);
        const QString model = dir + QStringLiteral("/models/ds2-lite-f32.gguf");
        const QString projector = dir + QStringLiteral("/models/kimivl-mmproj-f32.gguf");
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy idle(&w, &MainWindow::idle);
        w.setMmproj(projector); // made for another model's width
        w.openModel(model);
        QTRY_VERIFY_WITH_TIMEOUT(w.modelReady(), 120000);
        QTRY_VERIFY(!w.isBusy());
        const QString notes = w.chatPane()->notifications()->texts().join(QLatin1Char('\n'));
        QVERIFY2(notes.contains(QStringLiteral("vision projector was set aside")),
                 qPrintable(notes));
        QVERIFY2(notes.contains(QStringLiteral("projects to")), qPrintable(notes));
        QVERIFY2(notes.contains(QStringLiteral("Settings")), qPrintable(notes));
        // The model answers text: a question goes out.
        QSignalSpy finished(&w, &MainWindow::answerFinished);
        w.ask(QStringLiteral("Hello?"));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 120000);
        QCOMPARE(w.chatPane()->messages().last().role, ChatMessage::Role::Assistant);
        QVERIFY(w.chatPane()->messages().last().interrupted.isEmpty());
        w.chatPane()->waitForSaves();
    }
};

QTEST_MAIN(TestProjectorSetAside)
#include "test_projector_set_aside.moc"
