// `folio-cli report` (issue #49 §5) with the demo model on the generated sample report and its
// chart: every section made and exported as a PDF, the report file beside it, a run cut short
// resumed at the first section not made, --restart, and bad input (a malformed template, too few
// documents for the comparison).
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPdfDocument>
#include <QRegularExpression>
#include <QtTest>

#include "support/server_process.h"
#include "support/test_support.h"

namespace {

using Run = folio::test::CliRun;

QString sample(const QString& name) {
    return folio::test::builtProgram(QStringLiteral("generated/samples/") + name);
}

QString demo() {
    return folio::test::builtProgram(QStringLiteral("generated/models/demo-deepseek2.gguf"));
}

QJsonObject readJson(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

int count(const QString& text, const QString& pattern) {
    return int(text.count(QRegularExpression(pattern, QRegularExpression::MultilineOption)));
}

} // namespace

class TestReportCli : public QObject {
    Q_OBJECT
    QString dir_;

    Run report(const QStringList& extra) {
        QStringList args{"report",
                         "--template",
                         "equity-note",
                         sample("sample-report.pdf"),
                         sample("revenue-chart.png"),
                         "-m",
                         demo(),
                         "-n",
                         "12",
                         "-t",
                         "2",
                         "-o",
                         dir_ + "/note.pdf"};
        return folio::test::runCli(args + extra, 120000);
    }

private slots:
    void initTestCase() {
        if (!QFile::exists(demo()) || !QFile::exists(sample("sample-report.pdf"))) {
            if (folio::test::isCi())
                QFAIL("the demo model or the sample report is missing and CI=true");
            QSKIP("build folio_demo_model and folio_samples");
        }
        dir_ = folio::test::scratchDir("report-cli");
    }

    void everySectionIsMadeAndExported() {
        const Run r = report({});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        // Progress for the six asked sections, a line per section at the end.
        QCOMPARE(count(r.err, "^section \\d of 7 · "), 6);
        QVERIFY2(r.err.contains("3. Financial performance [done]: pages "), qPrintable(r.err));
        QVERIFY(r.err.contains("7. Sources [done]"));
        QVERIFY(r.err.contains("(6 sections made in "));
        QVERIFY2(r.out.startsWith("Figures: "), qPrintable(r.out));

        const QJsonObject saved = readJson(dir_ + "/note.folio-report");
        QCOMPARE(saved.value("format").toString(), QStringLiteral("folio-report"));
        const QJsonArray sections = saved.value("sections").toArray();
        QCOMPARE(sections.size(), 7);
        for (const QJsonValue& v : sections)
            QCOMPARE(v.toObject().value("state").toString(), QStringLiteral("done"));
        // Each asked section names the pages it used: pages of the 8-page sample.
        const QJsonArray used = sections[2].toObject().value("pages_used").toArray();
        QCOMPARE(used.size(), 1);
        const QJsonArray pages = used[0].toObject().value("pages").toArray();
        QVERIFY(!pages.isEmpty());
        for (const QJsonValue& p : pages)
            QVERIFY(p.toInt() >= 1 && p.toInt() <= 8);

        QPdfDocument pdf;
        QCOMPARE(pdf.load(dir_ + "/note.pdf"), QPdfDocument::Error::None);
        QString text;
        for (int i = 0; i < pdf.pageCount(); ++i)
            text += pdf.getAllText(i).text();
        for (const char* want : {"Equity research note", "Contents", "3. Financial performance",
                                 "7. Sources", "sample-report.pdf"})
            QVERIFY2(text.contains(QLatin1String(want)), want);
    }

    void aRunCutShortResumesAtTheNextSection() {
        // The file as a kill -9 during section 5 leaves it: sections 5 and 6 pending.
        const QString path = dir_ + "/note.folio-report";
        QJsonObject saved = readJson(path);
        QJsonArray sections = saved.value("sections").toArray();
        QCOMPARE(sections.size(), 7);
        for (int i : {4, 5}) {
            QJsonObject s = sections[i].toObject();
            s.insert("state", "pending");
            s.insert("text", "");
            sections[i] = s;
        }
        saved.insert("sections", sections);
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(QJsonDocument(saved).toJson());
        f.close();

        const Run r = report({});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains("resuming note.folio-report: 5 of 7 sections already made"),
                 qPrintable(r.err));
        QCOMPARE(count(r.err, "^section \\d of 7 · "), 2);
        QVERIFY(r.err.contains("section 5 of 7 · Risks"));
        QVERIFY(r.err.contains("(2 sections made in "));

        const Run again = report({"--restart"});
        QVERIFY2(again.exitCode == 0, qPrintable(again.err));
        QVERIFY(again.err.contains("(6 sections made in "));
    }

    void aDataSourceGoesWithTheReport() {
        const QString csv = dir_ + "/quarters.csv";
        QFile f(csv);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("quarter,revenue\nQ1,1071\nQ2,1108\nQ3,1131\nQ4,1186\n");
        f.close();
        const Run r = report({"--data", csv, "--report", dir_ + "/data.folio-report"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject saved = readJson(dir_ + "/data.folio-report");
        QCOMPARE(saved.value("data_sources").toArray().size(), 1);
        const QString sources =
            saved.value("sections").toArray()[6].toObject().value("text").toString();
        QVERIFY2(sources.contains("Data: quarters.csv"), qPrintable(sources));
    }

    void theSameReportThroughAServer() {
        // The remote backend (issue #49 §7): `folio-cli serve` on loopback answers the same
        // sections; greedy decoding on both sides. A server's counts are estimates, so pages
        // may differ; the sections made and the figure count line must not.
        if (folio::test::underThreadSanitizer())
            QSKIP("no child processes under TSan");
        folio::test::ServerProcess server;
        QString error;
        QVERIFY2(server.start(demo(), {}, &error), qPrintable(error));
        const Run local = report({"--restart"});
        QVERIFY2(local.exitCode == 0, qPrintable(local.err));
        const Run remote = folio::test::runCli(
            {"report", "--template", "equity-note", sample("sample-report.pdf"),
             sample("revenue-chart.png"), "--remote", QString::fromStdString(server.url()),
             "--model", "demo", "-c", "4096", "-n", "12", "-o", dir_ + "/remote.html"},
            120000);
        QVERIFY2(remote.exitCode == 0, qPrintable(remote.err));
        QVERIFY(remote.err.contains("(6 sections made in "));
        QCOMPARE(count(remote.err, "^\\d\\. .* \\[done\\]"), 7);
        QCOMPARE(remote.out, local.out); // the figure count line
        const QJsonObject saved = readJson(dir_ + "/remote.folio-report");
        QCOMPARE(saved.value("model").toString(), QStringLiteral("demo"));
        QFile html(dir_ + "/remote.html");
        QVERIFY(html.open(QIODevice::ReadOnly));
        QVERIFY(QString::fromUtf8(html.readAll()).contains("3. Financial performance"));
    }

    void badInputIsNamed() {
        const QString bad = dir_ + "/bad.md";
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("# Mine\n\n## One\nform: tabel\nSay it.\n");
        f.close();
        const Run malformed =
            folio::test::runCli({"report", "--template", bad, sample("sample-report.pdf"), "-m",
                                 demo(), "-o", dir_ + "/x.md"},
                                60000);
        QCOMPARE(malformed.exitCode, 1);
        QVERIFY2(malformed.err.contains("bad.md, line 4: unknown form “tabel”"),
                 qPrintable(malformed.err));

        const Run oneDocument =
            folio::test::runCli({"report", "--template", "comparison", sample("sample-report.pdf"),
                                 "-m", demo(), "-o", dir_ + "/c.md"},
                                60000);
        QCOMPARE(oneDocument.exitCode, 1);
        QVERIFY2(oneDocument.err.contains("reads 2 documents; 1 given"),
                 qPrintable(oneDocument.err));
        QVERIFY(!QFile::exists(dir_ + "/c.md"));
    }
};

QTEST_GUILESS_MAIN(TestReportCli)
#include "test_report_cli.moc"
