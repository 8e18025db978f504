// The workbench in Simplified Chinese (issue #25): with LC_ALL / LANGUAGE set to zh_CN before the
// application starts, the system locale is zh_CN, the translation built from
// translations/folio_zh_CN.ts is found in the resources and the real window's controls speak
// Chinese; English (no translation) keeps the source strings.
#include <QApplication>
#include <QDialogButtonBox>
#include <QFile>
#include <QLibraryInfo>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTextBrowser>
#include <QtTest>

#include "i18n/translations.h"
#include "main_window.h"
#include "support/test_support.h"

using namespace folio::ui;

class TestZhCn : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        const QString xdg = folio::test::scratchDir(QStringLiteral("zh-cn-xdg"));
        qputenv("XDG_CONFIG_HOME", (xdg + QStringLiteral("/config")).toUtf8());
        qputenv("XDG_DATA_HOME", (xdg + QStringLiteral("/data")).toUtf8());
        qputenv("XDG_CACHE_HOME", (xdg + QStringLiteral("/cache")).toUtf8());
        QCoreApplication::setOrganizationName(QStringLiteral("FolioTests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_zh_cn"));
    }

    void systemLocaleIsChinese() {
        QCOMPARE(QLocale::system().name(), QStringLiteral("zh_CN"));
        QVERIFY(installTranslations(qApp)); // from the system locale
    }

    void windowSpeaksChinese() {
        QVERIFY(installTranslations(qApp));
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* send = w.findChild<QPushButton*>(QStringLiteral("sendButton"));
        QVERIFY(send);
        QCOMPARE(send->text(), QStringLiteral("发送"));
        QCOMPARE(w.findChild<QPushButton*>(QStringLiteral("stopButton"))->text(),
                 QStringLiteral("停止"));
        QCOMPARE(w.menuBar()->actions().constFirst()->text(), QStringLiteral("文件(&F)"));
        auto* input = w.findChild<QPlainTextEdit*>(QStringLiteral("chatInput"));
        QVERIFY(input->placeholderText().startsWith(QStringLiteral("就打开的文档提问")));
        auto* transcript = w.findChild<QTextBrowser*>(QStringLiteral("chatTranscript"));
        QVERIFY(transcript->toPlainText().contains(QStringLiteral("就你的文档提问")));
        // Every menu of the menu bar has a Chinese title.
        for (QAction* menu : w.menuBar()->actions()) {
            bool cjk = false;
            for (const QChar c : menu->text())
                cjk = cjk || (c.unicode() >= 0x4e00 && c.unicode() <= 0x9fff);
            QVERIFY2(cjk, qPrintable(menu->text()));
        }
    }

    // Qt's own strings (OK / Cancel of every dialog, the file dialog) come from Qt's qtbase
    // translation (qt6-translations-l10n), loaded beside Folio's.
    void qtsOwnButtonsSpeakChinese() {
        const QString qm =
            QLibraryInfo::path(QLibraryInfo::TranslationsPath) + QStringLiteral("/qtbase_zh_CN.qm");
        if (!QFile::exists(qm)) {
            if (qEnvironmentVariableIsSet("CI"))
                QFAIL(qPrintable(qm + QStringLiteral(" is missing: install qt6-translations-l10n "
                                                     "(scripts/install-deps.sh)")));
            QSKIP("qt6-translations-l10n is not installed");
        }
        QVERIFY(installTranslations(qApp, QLocale(QLocale::Chinese, QLocale::China)));
        QDialogButtonBox box(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
        QCOMPARE(box.button(QDialogButtonBox::Cancel)->text(), QStringLiteral("取消"));
    }

    void englishKeepsTheSource() {
        QVERIFY(!installTranslations(qApp, QLocale(QLocale::English, QLocale::UnitedStates)));
        MainWindow w;
        QCOMPARE(w.findChild<QPushButton*>(QStringLiteral("sendButton"))->text(),
                 QStringLiteral("Send"));
        QVERIFY(installTranslations(qApp, QLocale(QLocale::Chinese, QLocale::China)));
        MainWindow zh;
        QCOMPARE(zh.findChild<QPushButton*>(QStringLiteral("sendButton"))->text(),
                 QStringLiteral("发送"));
    }
};

int main(int argc, char** argv) {
    // The language comes from the environment, as on a user's desktop.
    qputenv("LC_ALL", "zh_CN.UTF-8");
    qputenv("LANGUAGE", "zh_CN");
    QApplication app(argc, argv);
    TestZhCn test;
    return QTest::qExec(&test, argc, argv);
}

#include "test_zh_cn.moc"
