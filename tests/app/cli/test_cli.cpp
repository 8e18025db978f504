// folio-cli as a user runs it: exit codes and output of --version, --help and errors.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QtTest>

#include <cmath>

#include "folio/version.h"
#include "support/test_support.h"

namespace {

using Run = folio::test::CliRun;

Run runCli(const QStringList& args) {
    return folio::test::runCli(args, 60000);
}

} // namespace

class TestCli : public QObject {
    Q_OBJECT
private slots:
    void versionPrintsVersionAndExitsZero() {
        Run r = runCli({QStringLiteral("--version")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.startsWith(QStringLiteral("folio-cli " FOLIO_VERSION_STRING)),
                 qPrintable(r.out));
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

    // The prompt / sampling flags (cli/request_flags): each command takes only its own, and
    // the usage errors come before any file is opened.
    void requestFlagsAreCheckedPerCommand() {
        const QString model = QStringLiteral("/nonexistent/model.gguf");
        const struct {
            QStringList args;
            const char* message;
        } cases[] = {
            {{QStringLiteral("generate"), QStringLiteral("-m"), model, QStringLiteral("-p"),
              QStringLiteral("x"), QStringLiteral("-n"), QStringLiteral("0")},
             "-n 0 reads the prompt only; add --save-snapshot F"},
            {{QStringLiteral("generate"), QStringLiteral("-m"), model, QStringLiteral("-p"),
              QStringLiteral("x"), QStringLiteral("-n"), QStringLiteral("-1"),
              QStringLiteral("--save-snapshot"), QStringLiteral("s.kv")},
             "-n must be at least 1"},
            {{QStringLiteral("generate"), QStringLiteral("-m"), model, QStringLiteral("-p"),
              QStringLiteral("x"), QStringLiteral("--tokens"), QStringLiteral("1")},
             "exactly one of -p / --tokens"},
            {{QStringLiteral("generate"), QStringLiteral("-m"), model, QStringLiteral("-p"),
              QStringLiteral("x"), QStringLiteral("--chat"), QStringLiteral("--mmproj"),
              QStringLiteral("p.gguf"), QStringLiteral("--image"), QStringLiteral("i.png")},
             "not with --chat"},
            {{QStringLiteral("generate"), QStringLiteral("-m"), model, QStringLiteral("-p"),
              QStringLiteral("x"), QStringLiteral("--temp"), QStringLiteral("warm")},
             "--temp expects a number"},
            {{QStringLiteral("generate"), QStringLiteral("--remote"),
              QStringLiteral("http://127.0.0.1:9"), QStringLiteral("--model"), QStringLiteral("m"),
              QStringLiteral("-p"), QStringLiteral("x"), QStringLiteral("--repeat-penalty"),
              QStringLiteral("1.1")},
             "unknown option --repeat-penalty"},
            {{QStringLiteral("logits"), QStringLiteral("-m"), model, QStringLiteral("-p"),
              QStringLiteral("x"), QStringLiteral("--temp"), QStringLiteral("0")},
             "unknown option --temp"},
            {{QStringLiteral("logits"), QStringLiteral("-m"), model, QStringLiteral("--image"),
              QStringLiteral("i.png"), QStringLiteral("-p"), QStringLiteral("x")},
             "--image needs --mmproj"},
        };
        for (const auto& c : cases) {
            Run r = runCli(c.args);
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.contains(QLatin1String(c.message)), qPrintable(r.err));
        }
    }

    void logitsDumpMatchesGolden() {
        FOLIO_REQUIRE_CONFORMANCE(dir);
        QFile json(dir + QStringLiteral("/goldens/ds2-qlora-f32.json"));
        QVERIFY(json.open(QIODevice::ReadOnly));
        const QJsonObject seq0 = QJsonDocument::fromJson(json.readAll())
                                     .object()[QStringLiteral("sequences")]
                                     .toArray()[0]
                                     .toObject();
        QStringList ids;
        for (const auto& v : seq0[QStringLiteral("tokens")].toArray())
            ids << QString::number(v.toInt());
        const QString out =
            folio::test::scratchDir(QStringLiteral("cli-logits")) + QStringLiteral("/seq0.f32");
        for (const QString& mode : {QString(), QStringLiteral("--seq")}) {
            QStringList args = {QStringLiteral("logits"),
                                QStringLiteral("-m"),
                                dir + QStringLiteral("/models/ds2-qlora-f32.gguf"),
                                QStringLiteral("--tokens"),
                                ids.join(QLatin1Char(',')),
                                QStringLiteral("--dump"),
                                out};
            if (!mode.isEmpty())
                args << mode;
            Run r = runCli(args);
            QCOMPARE(r.exitCode, 0);
            QVERIFY(r.out.startsWith(QStringLiteral("top1 id=")));
            QFile ours(out), ref(dir + QStringLiteral("/goldens/ds2-qlora-f32.seq0.f32"));
            QVERIFY(ours.open(QIODevice::ReadOnly) && ref.open(QIODevice::ReadOnly));
            const QByteArray a = ours.readAll(), b = ref.readAll();
            QCOMPARE(a.size(), b.size());
            const float* fa = reinterpret_cast<const float*>(a.constData());
            const float* fb = reinterpret_cast<const float*>(b.constData());
            double maxd = 0;
            for (qsizetype i = 0; i < a.size() / 4; ++i)
                maxd = std::max(maxd, double(std::abs(fa[i] - fb[i])));
            QVERIFY2(maxd <= 1e-4, qPrintable(QString::number(maxd)));
        }
    }

    void greedyGenerateMatchesGolden() {
        // Prompt 2 of ds2-vl-text-f32 emits <|im_end|> at step 6: --ignore-eos must go on.
        FOLIO_REQUIRE_CONFORMANCE(dir);
        QFile json(dir + QStringLiteral("/goldens/ds2-vl-text-f32.json"));
        QVERIFY(json.open(QIODevice::ReadOnly));
        const QJsonObject g = QJsonDocument::fromJson(json.readAll())
                                  .object()[QStringLiteral("greedy")]
                                  .toArray()[1]
                                  .toObject();
        QStringList prompt, expected;
        for (const auto& v : g[QStringLiteral("prompt_tokens")].toArray())
            prompt << QString::number(v.toInt());
        for (const auto& v : g[QStringLiteral("generated")].toArray())
            expected << QString::number(v.toInt());
        Run r =
            runCli({QStringLiteral("generate"), QStringLiteral("-m"),
                    dir + QStringLiteral("/models/ds2-vl-text-f32.gguf"),
                    QStringLiteral("--tokens"), prompt.join(QLatin1Char(',')), QStringLiteral("-n"),
                    QString::number(expected.size()), QStringLiteral("--temp"), QStringLiteral("0"),
                    QStringLiteral("--ignore-eos"), QStringLiteral("--ids")});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out.trimmed(), expected.join(QLatin1Char(',')));
    }

    void badTokenIsAnError() {
        FOLIO_REQUIRE_CONFORMANCE(dir);
        Run r = runCli({QStringLiteral("logits"), QStringLiteral("-m"),
                        dir + QStringLiteral("/models/ds2-lite-f32.gguf"),
                        QStringLiteral("--tokens"), QStringLiteral("1,2,99999")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.startsWith(QStringLiteral("error: ")) &&
                     r.err.contains(QStringLiteral("99999")),
                 qPrintable(r.err));
    }

    // bench-doc-cache builds a document of at most --doc tokens (filled to within a character),
    // and the question and answer fit after it in the context; a --doc that leaves them no room
    // is refused up front with the largest one that does (issue 48, item 15).
    void benchDocCacheDocumentFitsWhatItAskedFor() {
        const QString dir = folio::test::scratchDir(QStringLiteral("bench-doc-cache"));
        const QString model = dir + QStringLiteral("/tiny-2k.gguf");
        Run made = runCli(
            {QStringLiteral("make-model"), QStringLiteral("--arch"), QStringLiteral("deepseek2"),
             QStringLiteral("--preset"), QStringLiteral("tiny"), QStringLiteral("--type"),
             QStringLiteral("f32"), QStringLiteral("--seed"), QStringLiteral("7"),
             QStringLiteral("--context"), QStringLiteral("2048"), QStringLiteral("--out"), model});
        QVERIFY2(made.exitCode == 0, qPrintable(made.err));

        const auto bench = [&](int doc) {
            return folio::test::runCli({QStringLiteral("bench-doc-cache"), QStringLiteral("-m"),
                                        model, QStringLiteral("-t"), QStringLiteral("1"),
                                        QStringLiteral("-n"), QStringLiteral("4"),
                                        QStringLiteral("--doc"), QString::number(doc),
                                        QStringLiteral("--dir"), dir},
                                       300000);
        };
        Run r = bench(1500); // 1500 + 512 for the question + 4 to answer <= 2048
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        const QRegularExpression line(
            QStringLiteral("document: (\\d+) tokens \\(asked for 1500 at most\\); with the "
                           "question (\\d+) tokens \\+ 4 to answer, context (\\d+)"));
        const QRegularExpressionMatch m = line.match(r.out);
        QVERIFY2(m.hasMatch(), qPrintable(r.out));
        const int docTokens = m.captured(1).toInt();
        const int withQuestion = m.captured(2).toInt();
        QVERIFY2(docTokens <= 1500 && docTokens >= 1495, qPrintable(r.out));
        QVERIFY2(withQuestion > docTokens && withQuestion + 4 <= m.captured(3).toInt(),
                 qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("cold: %1-token prompt").arg(withQuestion)),
                 qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("answers identical")), qPrintable(r.out));

        Run tooBig = bench(1600);
        QCOMPARE(tooBig.exitCode, 1);
        QVERIFY2(tooBig.err.contains(QStringLiteral("--doc 1532 at most")), qPrintable(tooBig.err));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"
