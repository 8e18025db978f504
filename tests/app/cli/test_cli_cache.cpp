// The cache flags of folio-cli, end to end in separate processes: `logits` with the cache forced
// to disk dumps the same bytes as all-in-RAM (each arch), and a document's snapshot saved by
// one `generate` process lets another answer without prefilling it, with the same tokens.
#include "support/test_support.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTest>

using namespace folio::test;

namespace {

using Run = CliRun;

Run cli(const QStringList& args) {
    return runCli(args, 120000);
}

QString demoModel() {
    return builtProgram(QStringLiteral("generated/models/demo-deepseek2.gguf"));
}

QString documentText() {
    QString s;
    for (int i = 1; i <= 5; ++i)
        s += QStringLiteral("[page %1] Pump P-%2 delivers %3 m3/h at %4 bar.\n")
                 .arg(i)
                 .arg(100 + i)
                 .arg(20 + 3 * i)
                 .arg(i + 2);
    return s;
}

// The value of `key=` in a --stats line.
qint64 statValue(const QString& out, const QString& key) {
    const qsizetype at = out.indexOf(key + QLatin1Char('='));
    if (at < 0)
        return -1;
    return out.mid(at + key.size() + 1).section(QLatin1Char(' '), 0, 0).trimmed().toLongLong();
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

    // Issue 22 §4: `generate -n 0 --save-snapshot F` reads the prompt (here the system turn
    // alone: a document read ahead) without answering; a later question with --load-snapshot F
    // reuses every token of it, across processes, and answers as a run from scratch does.
    void prefillOnlySnapshotThenQuestion() {
        const QString snap = scratchDir(QStringLiteral("cli-prefill")) + QStringLiteral("/doc.kv");
        const QStringList common{
            QStringLiteral("generate"), QStringLiteral("-m"),       demoModel(),
            QStringLiteral("--chat"),   QStringLiteral("--system"), documentText(),
            QStringLiteral("--temp"),   QStringLiteral("0"),        QStringLiteral("--stats"),
            QStringLiteral("--ids")};
        const Run read = cli(common + QStringList{QStringLiteral("-n"), QStringLiteral("0"),
                                                  QStringLiteral("--save-snapshot"), snap});
        QVERIFY2(read.exitCode == 0, qPrintable(read.err));
        const qint64 docTokens = statValue(read.out, QStringLiteral("prompt_tokens"));
        QVERIFY2(docTokens > 100, qPrintable(read.out));
        QCOMPARE(statValue(read.out, QStringLiteral("generated")), qint64(0));
        QVERIFY(read.out.contains(QStringLiteral("stop=length")));
        QVERIFY2(read.err.contains(QStringLiteral("snapshot: saved %1 tokens").arg(docTokens)),
                 qPrintable(read.err));
        const QStringList ask{QStringLiteral("-p"), QStringLiteral("Which pump runs at 5 bar?"),
                              QStringLiteral("-n"), QStringLiteral("6"),
                              QStringLiteral("--ignore-eos")};
        const Run warm = cli(common + ask + QStringList{QStringLiteral("--load-snapshot"), snap});
        QVERIFY2(warm.exitCode == 0, qPrintable(warm.err));
        QCOMPARE(statValue(warm.out, QStringLiteral("reused")), docTokens);
        QVERIFY(statValue(warm.out, QStringLiteral("prompt_tokens")) > docTokens);
        const Run cold = cli(common + ask);
        QVERIFY2(cold.exitCode == 0, qPrintable(cold.err));
        QCOMPARE(statValue(cold.out, QStringLiteral("reused")), qint64(0));
        QCOMPARE(warm.out.section(QLatin1Char('\n'), 0, 0),
                 cold.out.section(QLatin1Char('\n'), 0, 0)); // the same answer ids

        // Raw tokens, prefill only: reused exactly.
        const QString tokSnap = snap + QStringLiteral(".tok");
        const QString doc = tokenList(200, 2);
        const Run rawRead = cli({QStringLiteral("generate"), QStringLiteral("-m"), demoModel(),
                                 QStringLiteral("--tokens"), doc, QStringLiteral("-n"),
                                 QStringLiteral("0"), QStringLiteral("--save-snapshot"), tokSnap});
        QVERIFY2(rawRead.exitCode == 0, qPrintable(rawRead.err));
        const Run rawAsk =
            cli({QStringLiteral("generate"), QStringLiteral("-m"), demoModel(),
                 QStringLiteral("--tokens"), doc + QLatin1Char(',') + tokenList(9, 50),
                 QStringLiteral("-n"), QStringLiteral("2"), QStringLiteral("--stats"),
                 QStringLiteral("--load-snapshot"), tokSnap});
        QVERIFY2(rawAsk.exitCode == 0, qPrintable(rawAsk.err));
        QCOMPARE(statValue(rawAsk.out, QStringLiteral("reused")), qint64(200));

        // -n 0 is refused where it means nothing: without --save-snapshot, and through --remote.
        const Run pointless = cli({QStringLiteral("generate"), QStringLiteral("-m"), demoModel(),
                                   QStringLiteral("-p"), QStringLiteral("hi"), QStringLiteral("-n"),
                                   QStringLiteral("0")});
        QCOMPARE(pointless.exitCode, 2);
        QVERIFY2(pointless.err.contains(QStringLiteral("--save-snapshot")),
                 qPrintable(pointless.err));
        const Run noPrompt =
            cli({QStringLiteral("generate"), QStringLiteral("-m"), demoModel(),
                 QStringLiteral("--chat"), QStringLiteral("-n"), QStringLiteral("1")});
        QCOMPARE(noPrompt.exitCode, 2);
        const Run remote = cli({QStringLiteral("generate"), QStringLiteral("--remote"),
                                QStringLiteral("http://127.0.0.1:9"), QStringLiteral("--model"),
                                QStringLiteral("m"), QStringLiteral("-p"), QStringLiteral("hi"),
                                QStringLiteral("-n"), QStringLiteral("0")});
        QCOMPARE(remote.exitCode, 2);
        QVERIFY2(remote.err.contains(QStringLiteral("-n")), qPrintable(remote.err));
    }

    // A save that runs out of space (here the file size limit, RLIMIT_FSIZE, which write(2)
    // reports like a full disk) fails with a clear message and leaves no file, not even the
    // temporary one.
    void aFullDiskWhileSavingLeavesNoFile() {
        if (underThreadSanitizer())
            QSKIP("starts a child process (see test_support.h)");
        const QString folder = scratchDir(QStringLiteral("cli-full"));
        const QString snap = folder + QStringLiteral("/doc.kv");
        QProcess p;
        // Ignored signals stay ignored across exec: write() then fails with EFBIG instead of
        // SIGXFSZ killing the process. 64 blocks of 512 or 1024 bytes, the snapshot is ~300 KB.
        p.start(
            QStringLiteral("/bin/sh"),
            {QStringLiteral("-c"), QStringLiteral("trap '' XFSZ; ulimit -f 64; exec \"$0\" \"$@\""),
             builtProgram(QStringLiteral("app/folio-cli")), QStringLiteral("generate"),
             QStringLiteral("-m"), demoModel(), QStringLiteral("--tokens"), tokenList(240, 4),
             QStringLiteral("-n"), QStringLiteral("0"), QStringLiteral("--save-snapshot"), snap});
        QVERIFY(p.waitForFinished(120000));
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 1);
        QVERIFY2(err.contains(snap) && err.contains(QStringLiteral("file size limit")),
                 qPrintable(err));
        QVERIFY2(QDir(folder).entryList(QDir::Files | QDir::Hidden).isEmpty(),
                 qPrintable(QDir(folder).entryList(QDir::Files | QDir::Hidden).join(u' ')));
    }
};

QTEST_GUILESS_MAIN(TestCliCache)
#include "test_cli_cache.moc"
