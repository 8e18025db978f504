// The Documents pane's preview menu (issue #48 §13): right-clicking the PDF preview offers to
// attach the page shown (or a part of it) to the question, as the image preview's menu does.
// The click is delivered as a real one: a context menu event to the view's viewport.
#include <QContextMenuEvent>
#include <QMenu>
#include <QPdfView>
#include <QSignalSpy>
#include <QTimer>
#include <QtTest>

#include "documents/documents_pane.h"
#include "support/test_support.h"

using namespace folio::ui;

class TestPreviewMenu : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        const QString xdg = folio::test::scratchDir(QStringLiteral("preview-menu-xdg"));
        qputenv("XDG_CONFIG_HOME", (xdg + QStringLiteral("/config")).toUtf8());
        qputenv("XDG_CACHE_HOME", (xdg + QStringLiteral("/cache")).toUtf8());
        qputenv("FOLIO_OCR", "off"); // not what this is about
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    }

    void rightClickOnThePdfPreviewOffersThePage() {
        const QString report =
            folio::test::builtProgram(QStringLiteral("generated/samples/sample-report.pdf"));
        if (!QFile::exists(report)) {
            if (folio::test::isCi())
                QFAIL("sample-report.pdf missing under CI=true (build folio_samples)");
            QSKIP("sample-report.pdf missing: build folio_samples");
        }
        DocumentsPane pane;
        pane.resize(420, 800);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        pane.openFiles({report});
        QTRY_COMPARE_WITH_TIMEOUT(pane.documents().value(0).state, Document::State::Ready, 20000);
        auto* view = pane.findChild<QPdfView*>();
        QVERIFY(view);
        QTRY_VERIFY(view->isVisible());

        QStringList offered;
        QTimer::singleShot(0, this, [&offered] {
            // The menu is modal: read it while it is open, then close it.
            auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget());
            if (!menu)
                return;
            for (QAction* a : menu->actions())
                offered << a->text();
            menu->close();
        });
        QWidget* viewport = view->viewport();
        const QPoint at(viewport->width() / 2, 40);
        QContextMenuEvent event(QContextMenuEvent::Mouse, at, viewport->mapToGlobal(at));
        QApplication::sendEvent(viewport, &event);
        QVERIFY2(offered.contains(QStringLiteral("Attach page 1 to the question")),
                 qPrintable(offered.join(QStringLiteral(" | "))));
        QVERIFY(offered.contains(QStringLiteral("Attach a part of page 1…")));
    }
};

QTEST_MAIN(TestPreviewMenu)
#include "test_preview_menu.moc"
