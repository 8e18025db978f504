// The real MainWindow on a small screen (issue #25): the offscreen platform is given one screen
// of the size named by --screen WxH[@dpr] (default 1366x768, a common laptop; ctest also runs
// 1920x1080 at 150 % scaling), and the question box and Send must lie inside the screen's
// available geometry, on a first run and with a geometry saved on a larger screen.
#include <QApplication>
#include <QDockWidget>
#include <QFile>
#include <QFont>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QtTest>

#include "main_window.h"
#include "support/test_support.h"

using namespace folio::ui;

namespace {

QSize g_screen(1366, 768);
double g_dpr = 1.0;

QRect globalRect(const QWidget* w) {
    return QRect(w->mapToGlobal(QPoint(0, 0)), w->size());
}

} // namespace

class TestWindowFit : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QCOMPARE(QGuiApplication::primaryScreen()->geometry().size(),
                 (QSizeF(g_screen) / g_dpr).toSize());
    }

    void init() {
        // Every test starts as a first run unless it saves a geometry itself.
        QSettings().clear();
    }

    void firstRunFitsTheScreen() { checkFits(); }

    void geometryFromALargerScreenIsBroughtBack() {
        {
            MainWindow big;
            big.setGeometry(300, 200, 2200, 1300); // saved on a large monitor
            QSettings settings;
            settings.setValue(QStringLiteral("window/geometry"), big.saveGeometry());
            settings.setValue(QStringLiteral("window/state"), big.saveState());
        }
        checkFits();
    }

    void sidePanesCloseAndTheWindowShrinksToTheScreen() {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        for (const char* name : {"documentsDock", "devicesDock"}) {
            auto* dock = w.findChild<QDockWidget*>(QString::fromLatin1(name));
            QVERIFY2(dock, name);
            QVERIFY2(dock->features().testFlag(QDockWidget::DockWidgetClosable), name);
        }
        // Narrow enough: the whole window can be made as small as the screen.
        const QSize least = w.minimumSizeHint().expandedTo(w.minimumSize());
        const QSize room = w.screen()->availableGeometry().size();
        QVERIFY2(least.width() <= room.width() && least.height() <= room.height(),
                 qPrintable(QStringLiteral("window at least %1x%2 on %3x%4")
                                .arg(least.width())
                                .arg(least.height())
                                .arg(room.width())
                                .arg(room.height())));
    }

private:
    void checkFits() {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTest::qWait(50); // the fit after the first show runs from the event loop
        const QRect available = w.screen()->availableGeometry();
        QVERIFY2(available.contains(w.frameGeometry()),
                 qPrintable(QStringLiteral("window %1,%2 %3x%4 on %5x%6")
                                .arg(w.frameGeometry().x())
                                .arg(w.frameGeometry().y())
                                .arg(w.frameGeometry().width())
                                .arg(w.frameGeometry().height())
                                .arg(available.width())
                                .arg(available.height())));
        auto* send = w.findChild<QPushButton*>(QStringLiteral("sendButton"));
        auto* input = w.findChild<QPlainTextEdit*>(QStringLiteral("chatInput"));
        QVERIFY(send && input);
        for (QWidget* widget : {static_cast<QWidget*>(send), static_cast<QWidget*>(input)}) {
            QVERIFY2(widget->isVisible(), qPrintable(widget->objectName()));
            const QRect r = globalRect(widget);
            QVERIFY2(available.contains(r),
                     qPrintable(QStringLiteral("%1 at %2,%3 %4x%5 outside %6x%7")
                                    .arg(widget->objectName())
                                    .arg(r.x())
                                    .arg(r.y())
                                    .arg(r.width())
                                    .arg(r.height())
                                    .arg(available.width())
                                    .arg(available.height())));
            // Not squashed to nothing either: a line of text fits.
            QVERIFY2(r.height() >= widget->fontMetrics().height() + 4,
                     qPrintable(widget->objectName()));
        }
        QVERIFY(globalRect(input).width() >= 200);
        // The three panes are all on the screen, none squashed.
        for (const char* name : {"documentsPane", "chatPane", "devicesPane"}) {
            auto* pane = w.findChild<QWidget*>(QString::fromLatin1(name));
            QVERIFY2(pane && pane->isVisible(), name);
            QVERIFY2(available.contains(globalRect(pane)), name);
            QVERIFY2(pane->width() >= 200, name);
        }
        QVERIFY(send->width() >= send->minimumSizeHint().width());
    }
};

int main(int argc, char** argv) {
    // --screen WxH[@dpr]: the offscreen platform's one screen (a JSON configuration file).
    QList<char*> args;
    for (int i = 0; i < argc; ++i) {
        if (qstrcmp(argv[i], "--screen") == 0 && i + 1 < argc) {
            const QString spec = QString::fromLatin1(argv[++i]);
            const QStringList size = spec.section(QLatin1Char('@'), 0, 0).split(QLatin1Char('x'));
            g_screen = QSize(size.value(0).toInt(), size.value(1).toInt());
            if (spec.contains(QLatin1Char('@')))
                g_dpr = spec.section(QLatin1Char('@'), 1).toDouble();
            continue;
        }
        args.append(argv[i]);
    }
    const QString dir = folio::test::scratchDir(
        QStringLiteral("window-fit-%1x%2").arg(g_screen.width()).arg(g_screen.height()));
    const QString config = dir + QStringLiteral("/screen.json");
    QFile file(config);
    if (!file.open(QIODevice::WriteOnly))
        return 2;
    // Qt scales by the screen's logical DPI against 96: 144 DPI is 150 %.
    file.write(QStringLiteral(R"({"screens": [{"name": "laptop", "x": 0, "y": 0, "width": %1,
        "height": %2, "logicalDpi": %3, "logicalBpi": 96, "dpr": 1}]})")
                   .arg(g_screen.width())
                   .arg(g_screen.height())
                   .arg(96 * g_dpr)
                   .toUtf8());
    file.close();
    qputenv("QT_QPA_PLATFORM", (QStringLiteral("offscreen:configfile=") + config).toUtf8());
    qputenv("XDG_CONFIG_HOME", (dir + QStringLiteral("/config")).toUtf8());
    qputenv("XDG_DATA_HOME", (dir + QStringLiteral("/data")).toUtf8());
    qputenv("XDG_CACHE_HOME", (dir + QStringLiteral("/cache")).toUtf8());
    int count = int(args.size());
    QApplication app(count, args.data());
    // Text as large as a GNOME desktop's (11 pt): one-line labels set the window's narrowest
    // width, and the offscreen platform's default font is smaller.
    QFont font = QApplication::font();
    font.setPointSizeF(11);
    QApplication::setFont(font);
    QCoreApplication::setOrganizationName(QStringLiteral("FolioTests"));
    QCoreApplication::setApplicationName(QStringLiteral("test_window_fit"));
    TestWindowFit test;
    return QTest::qExec(&test, count, args.data());
}

#include "test_window_fit.moc"
