// `folio` as a command: --help and --version print and exit 0 on a machine without a display
// (no DISPLAY, no WAYLAND_DISPLAY, no QT_QPA_PLATFORM), with no Qt platform error (issue 48,
// item 13).
#include <QProcess>
#include <QtTest>

#include "folio/version.h"
#include "support/test_support.h"

namespace {

struct Run {
    int exitCode = -1; // -1: did not finish, -2: crashed
    QString out, err;
};

Run runFolioWithoutDisplay(const QStringList& args) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char* name : {"QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"})
        env.remove(QString::fromLatin1(name));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"),
               folio::test::scratchDir(QStringLiteral("folio-args-config")));
    p.setProcessEnvironment(env);
    p.start(folio::test::builtProgram(QStringLiteral("app/folio")), args);
    Run r;
    if (!p.waitForFinished(60000)) {
        p.kill();
        p.waitForFinished(5000);
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

} // namespace

class TestFolioArgs : public QObject {
    Q_OBJECT
private slots:
    void helpWithoutADisplay() {
        for (const char* option : {"--help", "-h"}) {
            Run r = runFolioWithoutDisplay({QString::fromLatin1(option)});
            const QString what = QString::fromLatin1(option) + QStringLiteral(": exit ") +
                                 QString::number(r.exitCode) + QStringLiteral("\nstdout: ") +
                                 r.out + QStringLiteral("\nstderr: ") + r.err;
            QVERIFY2(r.exitCode == 0, qPrintable(what));
            QVERIFY2(r.out.contains(QStringLiteral("Usage: ")), qPrintable(what));
            QVERIFY2(r.out.contains(QStringLiteral("Folio: ask questions about long reports")),
                     qPrintable(what));
            for (const char* o : {"--model <gguf>", "--mmproj <gguf>", "--ask <question>",
                                  "--screenshot <png>", "--version"})
                QVERIFY2(r.out.contains(QString::fromLatin1(o)), qPrintable(what));
            // Nothing about Qt's platform, a display or a plugin.
            QVERIFY2(r.err.isEmpty(), qPrintable(what));
        }
    }

    void versionWithoutADisplay() {
        for (const char* option : {"--version", "-v"}) {
            Run r = runFolioWithoutDisplay({QString::fromLatin1(option)});
            const QString what = QString::fromLatin1(option) + QStringLiteral(": exit ") +
                                 QString::number(r.exitCode) + QStringLiteral("\nstdout: ") +
                                 r.out + QStringLiteral("\nstderr: ") + r.err;
            QVERIFY2(r.exitCode == 0, qPrintable(what));
            QCOMPARE(r.out.trimmed(), QStringLiteral("folio " FOLIO_VERSION_STRING));
            QVERIFY2(r.err.isEmpty(), qPrintable(what));
        }
    }

    // With an unknown option beside --help the parser's error comes (exit 1), not Qt's.
    void unknownOptionBesideHelpIsTheParsersError() {
        Run r = runFolioWithoutDisplay({QStringLiteral("--help"), QStringLiteral("--bogus")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("Unknown option 'bogus'")), qPrintable(r.err));
        QVERIFY2(!r.err.contains(QStringLiteral("platform")), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestFolioArgs)
#include "test_folio_args.moc"
