// folio-cli as a user runs it: exit codes and output of --version, --help and errors.
#include <QProcess>
#include <QtTest>

#include "folio/version.h"
#include "support/test_support.h"

namespace {

struct Run {
    int exitCode = -1;
    QString out, err;
};

Run runCli(const QStringList& args) {
    QProcess p;
    p.start(folio::test::builtProgram(QStringLiteral("app/folio-cli")), args);
    Run r;
    if (!p.waitForFinished(60000))
        return r;
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

} // namespace

class TestCli : public QObject {
    Q_OBJECT
private slots:
    void versionPrintsVersionAndExitsZero() {
        Run r = runCli({QStringLiteral("--version")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.startsWith(QStringLiteral("folio-cli " FOLIO_VERSION_STRING)), qPrintable(r.out));
        QVERIFY(r.out.contains(QStringLiteral("kernels")));
    }
    void helpListsCommands() {
        Run r = runCli({QStringLiteral("--help")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains(QStringLiteral("usage: folio-cli")));
        QVERIFY(r.out.contains(QStringLiteral("sysinfo")));
    }
    void noArgumentsIsUsageError() {
        Run r = runCli({});
        QCOMPARE(r.exitCode, 2);
    }
    void unknownCommandIsUsageError() {
        Run r = runCli({QStringLiteral("frobnicate")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains(QStringLiteral("unknown command 'frobnicate'")));
    }
    void sysinfoReportsCores() {
        Run r = runCli({QStringLiteral("sysinfo")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains(QStringLiteral("logical cores: ")));
        Run bad = runCli({QStringLiteral("sysinfo"), QStringLiteral("--bogus")});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY(bad.err.contains(QStringLiteral("unknown option --bogus")));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"
