// `folio-cli summarize`: the workbench's pipeline headless (QtPdf text, prompt with page
// markers, the engine, an atomic Markdown file), and its errors.
#include <QFile>
#include <QtTest>

#include "support/test_support.h"

namespace {

using Run = folio::test::CliRun;

Run runCli(const QStringList& args) {
    return folio::test::runCli(args, 90000);
}

QString sample(const QString& name) {
    return folio::test::builtProgram(QStringLiteral("generated/samples/") + name);
}

QString demo() {
    return folio::test::builtProgram(QStringLiteral("generated/models/demo-deepseek2.gguf"));
}

} // namespace

class TestSummarize : public QObject {
    Q_OBJECT
private slots:
    void summarizesTheSampleReport() {
        const QString out =
            folio::test::scratchDir(QStringLiteral("summarize")) + QStringLiteral("/summary.md");
        const Run r =
            runCli({QStringLiteral("summarize"), sample(QStringLiteral("sample-report.pdf")),
                    sample(QStringLiteral("revenue-chart.png")), QStringLiteral("-m"), demo(),
                    QStringLiteral("-o"), out, QStringLiteral("-n"), QStringLiteral("16")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString md = QString::fromUtf8(f.readAll());
        QVERIFY2(md.startsWith(
                     QStringLiteral("# Summary: Northwind Instruments plc - Annual Report 2025\n")),
                 qPrintable(md));
        QVERIFY(md.contains(QStringLiteral("sample-report.pdf (8 pages)")));
        QVERIFY(md.contains(QStringLiteral("prompt tokens")));
        QVERIFY(r.err.contains(QStringLiteral("wrote")));
    }

    void errorsAreClear() {
        const QString dir = folio::test::scratchDir(QStringLiteral("summarize-errors"));
        const QString out = dir + QStringLiteral("/out.md");
        Run r = runCli({QStringLiteral("summarize"), dir + QStringLiteral("/missing.pdf"),
                        QStringLiteral("-m"), demo(), QStringLiteral("-o"), out});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("not found")), qPrintable(r.err));
        QVERIFY(!QFile::exists(out));

        QFile empty(dir + QStringLiteral("/empty.png"));
        QVERIFY(empty.open(QIODevice::WriteOnly));
        empty.close();
        r = runCli({QStringLiteral("summarize"), sample(QStringLiteral("sample-report.pdf")),
                    empty.fileName(), QStringLiteral("-m"), demo(), QStringLiteral("-o"), out});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("empty.png")), qPrintable(r.err));

        r = runCli({QStringLiteral("summarize"), sample(QStringLiteral("sample-report.pdf")),
                    QStringLiteral("-m"), demo()});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains(QStringLiteral("-o OUT.md")));
    }
};

QTEST_MAIN(TestSummarize)
#include "test_summarize.moc"
