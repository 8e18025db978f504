// The cache flags of folio-cli, end to end in separate processes: `logits` with the cache forced
// to disk dumps the same bytes as all-in-RAM (each arch), and a document's snapshot saved by
// one `generate` process lets another answer without prefilling it, with the same tokens.
#include "support/test_support.h"

#include <QFile>
#include <QTest>

using namespace folio::test;

namespace {

using Run = CliRun;

Run cli(const QStringList& args) {
    return runCli(args, 120000);
}

QString tokenList(int n, int offset) {
    QStringList t;
    for (int i = 0; i < n; ++i)
        t << QString::number((i * 7 + offset) % 300 + 5);
    return t.join(QLatin1Char(','));
}

} // namespace

class TestCliCache : public QObject {
    Q_OBJECT
private slots:
    void logitsFromDiskEqualLogitsFromRam_data() {
        QTest::addColumn<QString>("model");
        QTest::newRow("deepseek2") << QStringLiteral("ds2-lite-f32");
        QTest::newRow("kimi-linear") << QStringLiteral("kimi-linear-f32");
        QTest::newRow("deepseek32") << QStringLiteral("ds32-f32");
    }
    void logitsFromDiskEqualLogitsFromRam() {
        QFETCH(QString, model);
        FOLIO_REQUIRE_CONFORMANCE(dir);
        const QString folder = scratchDir(QStringLiteral("cli-cache-") + model);
        const QString gguf = dir + QStringLiteral("/models/") + model + QStringLiteral(".gguf");
        const QString tokens = tokenList(300, 3);
        for (const QString& type : {QStringLiteral("f32"), QStringLiteral("q8_0")}) {
            const QString ram = folder + QStringLiteral("/ram-") + type + QStringLiteral(".f32");
            const QString disk = folder + QStringLiteral("/disk-") + type + QStringLiteral(".f32");
            for (const QString& mode : {QStringLiteral("batch"), QStringLiteral("seq")}) {
                QStringList common{QStringLiteral("logits"),
                                   QStringLiteral("-m"),
                                   gguf,
                                   QStringLiteral("--tokens"),
                                   tokens,
                                   QStringLiteral("--kv-type"),
                                   type};
                if (mode == QStringLiteral("seq"))
                    common << QStringLiteral("--seq");
                const Run a = cli(common + QStringList{QStringLiteral("--dump"), ram});
                QVERIFY2(a.exitCode == 0, qPrintable(a.err));
                const Run b =
                    cli(common + QStringList{QStringLiteral("--dump"), disk,
                                             QStringLiteral("--ram-budget"), QStringLiteral("16K"),
                                             QStringLiteral("--offload-dir"),
                                             folder + QStringLiteral("/tier")});
                QVERIFY2(b.exitCode == 0, qPrintable(b.err));
                QVERIFY2(b.err.contains(QStringLiteral("moved to disk")), qPrintable(b.err));
                QVERIFY2(!b.err.contains(QStringLiteral("warning")), qPrintable(b.err));
                QFile fa(ram), fb(disk);
                QVERIFY(fa.open(QIODevice::ReadOnly) && fb.open(QIODevice::ReadOnly));
                const QByteArray da = fa.readAll(), db = fb.readAll();
                QCOMPARE(da.size(), 300 * 320 * 4);
                QVERIFY2(da == db, qPrintable(type + QLatin1Char(' ') + mode));
            }
        }
        // Bad flag values are usage errors.
        const Run bad =
            cli({QStringLiteral("logits"), QStringLiteral("-m"), gguf, QStringLiteral("--tokens"),
                 QStringLiteral("1,2"), QStringLiteral("--kv-type"), QStringLiteral("q4_0")});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY(bad.err.contains(QStringLiteral("--kv-type")));
    }

    void snapshotAcrossProcesses() {
        FOLIO_REQUIRE_CONFORMANCE(dir);
        const QString gguf = dir + QStringLiteral("/models/kimi-linear-f32.gguf");
        const QString snap = scratchDir(QStringLiteral("cli-snap")) + QStringLiteral("/doc.kv");
        const QString doc = tokenList(700, 1);
        const QString question = doc + QLatin1Char(',') + tokenList(12, 40);
        const QStringList gen{
            QStringLiteral("generate"), QStringLiteral("-m"),          gguf,
            QStringLiteral("--temp"),   QStringLiteral("0"),           QStringLiteral("--ids"),
            QStringLiteral("--stats"),  QStringLiteral("--ignore-eos")};
        const Run save =
            cli(gen + QStringList{QStringLiteral("--tokens"), doc, QStringLiteral("-n"),
                                  QStringLiteral("1"), QStringLiteral("--save-snapshot"), snap});
        QVERIFY2(save.exitCode == 0, qPrintable(save.err));
        QVERIFY2(save.err.contains(QStringLiteral("snapshot: saved 700 tokens")),
                 qPrintable(save.err));
        const Run load =
            cli(gen + QStringList{QStringLiteral("--tokens"), question, QStringLiteral("-n"),
                                  QStringLiteral("8"), QStringLiteral("--load-snapshot"), snap});
        QVERIFY2(load.exitCode == 0, qPrintable(load.err));
        QVERIFY2(load.out.contains(QStringLiteral("reused=700")), qPrintable(load.out));
        const Run scratch = cli(gen + QStringList{QStringLiteral("--tokens"), question,
                                                  QStringLiteral("-n"), QStringLiteral("8")});
        QVERIFY2(scratch.exitCode == 0, qPrintable(scratch.err));
        QVERIFY(scratch.out.contains(QStringLiteral("reused=0")));
        QCOMPARE(load.out.section(QLatin1Char('\n'), 0, 0),
                 scratch.out.section(QLatin1Char('\n'), 0, 0));
        // A snapshot of another model is refused; the answer is computed from scratch.
        const Run other = cli({QStringLiteral("generate"), QStringLiteral("-m"),
                               dir + QStringLiteral("/models/ds2-lite-f32.gguf"),
                               QStringLiteral("--tokens"), question, QStringLiteral("-n"),
                               QStringLiteral("2"), QStringLiteral("--load-snapshot"), snap});
        QCOMPARE(other.exitCode, 0);
        QVERIFY2(other.err.contains(QStringLiteral("another model")), qPrintable(other.err));
    }
};

QTEST_GUILESS_MAIN(TestCliCache)
#include "test_cli_cache.moc"
