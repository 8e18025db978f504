// `folio-cli summarize`: the workbench's pipeline headless (QtPdf text, prompt with page
// markers, the engine, an atomic Markdown file), and its errors.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QtTest>

#include "core/documents/document_loader.h"
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
        const QString figures = out + QStringLiteral(".figures.json");
        const Run r =
            runCli({QStringLiteral("summarize"), sample(QStringLiteral("sample-report.pdf")),
                    sample(QStringLiteral("revenue-chart.png")), QStringLiteral("-m"), demo(),
                    QStringLiteral("-o"), out, QStringLiteral("-n"), QStringLiteral("16"),
                    QStringLiteral("--figures"), figures});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        // The summary's figures (issue #46 §2): the count on stdout agrees with the table.
        static const QRegularExpression line(
            QStringLiteral("^Figures: (\\d+) verified · (\\d+) on another page · (\\d+) not "
                           "found · (\\d+) uncited$"),
            QRegularExpression::MultilineOption);
        const QRegularExpressionMatch counted = line.match(r.out);
        QVERIFY2(counted.hasMatch(), qPrintable(r.out));
        QFile table(figures);
        QVERIFY(table.open(QIODevice::ReadOnly));
        const QJsonDocument rows = QJsonDocument::fromJson(table.readAll());
        QVERIFY(rows.isArray());
        QHash<QString, int> states;
        for (const QJsonValue& row : rows.array())
            ++states[row.toObject().value(QStringLiteral("state")).toString()];
        QCOMPARE(states.value(QStringLiteral("verified")), counted.captured(1).toInt());
        QCOMPARE(states.value(QStringLiteral("other_page")), counted.captured(2).toInt());
        QCOMPARE(states.value(QStringLiteral("not_found")), counted.captured(3).toInt());
        QCOMPARE(states.value(QStringLiteral("uncited")), counted.captured(4).toInt());
        QCOMPARE(int(rows.array().size()), states.value(QStringLiteral("verified")) +
                                               states.value(QStringLiteral("other_page")) +
                                               states.value(QStringLiteral("not_found")) +
                                               states.value(QStringLiteral("uncited")));
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

    // Acceptance of issue #22: a report 100x the context is summarized. The demo model runs with
    // a 512-token context (the engine's context for the run, -c 512) so the run stays short; the
    // report's size is counted independently with `folio-cli tokenize`.
    void summarizesAReport100TimesTheContext() {
        const QString dir = folio::test::scratchDir(QStringLiteral("summarize-long"));
        const QString pdf = dir + QStringLiteral("/long.pdf");
        const int pages = 220;
        QProcess make;
        make.start(folio::test::builtProgram(QStringLiteral("tools/folio-make-sample")),
                   {QStringLiteral("--long"), pdf, QStringLiteral("--pages"),
                    QString::number(pages), QStringLiteral("--words"), QStringLiteral("25")});
        QVERIFY(make.waitForFinished(120000));
        QCOMPARE(make.exitCode(), 0);

        const folio::ui::Document doc = folio::ui::loadDocument(pdf);
        QVERIFY2(doc.state == folio::ui::Document::State::Ready, qPrintable(doc.error));
        QCOMPARE(doc.pageCount, pages);
        QFile text(dir + QStringLiteral("/text.txt"));
        QVERIFY(text.open(QIODevice::WriteOnly));
        text.write(doc.pageTexts.join(QLatin1Char('\n')).toUtf8());
        text.close();
        const Run tokens =
            runCli({QStringLiteral("tokenize"), QStringLiteral("-m"), demo(),
                    QStringLiteral("--text-file"), text.fileName(), QStringLiteral("--no-bos")});
        QCOMPARE(tokens.exitCode, 0);
        const qsizetype documentTokens = tokens.out.count(QLatin1Char(',')) + 1;
        qInfo("the report: %d pages, %lld tokens", pages, qlonglong(documentTokens));
        QVERIFY2(documentTokens >= 100 * 512, qPrintable(QString::number(documentTokens)));

        const QString out = dir + QStringLiteral("/summary.md");
        QElapsedTimer clock;
        clock.start();
        const Run r =
            folio::test::runCli({QStringLiteral("summarize"), pdf, QStringLiteral("-m"), demo(),
                                 QStringLiteral("-o"), out, QStringLiteral("-n"),
                                 QStringLiteral("8"), QStringLiteral("-c"), QStringLiteral("512")},
                                280000);
        qInfo("summarize took %.1f s", double(clock.elapsed()) / 1000.0);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err.right(2000)));
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString md = QString::fromUtf8(f.readAll());
        QVERIFY(md.contains(QStringLiteral("long.pdf (%1 pages)").arg(pages)));
        QVERIFY(md.contains(QStringLiteral("context 512")));

        // "Read in N parts, combined in R rounds (S stages): pages 1–2, 3 (piece 1 of 2), ...,
        // 220." ("combined once (2 stages)"): the stages counted as the progress line and the
        // footer count them (issue #48 §9).
        static const QRegularExpression partsLine(
            QStringLiteral("Read in (\\d+) parts, combined (?:once \\(2 stages\\)|in (\\d+) "
                           "rounds \\((\\d+) stages\\)): pages ([^\\n]*)\\.\\n"));
        const auto m = partsLine.match(md);
        QVERIFY2(m.hasMatch(), qPrintable(md.left(3000)));
        const int parts = m.captured(1).toInt();
        const int combines = m.captured(2).isEmpty() ? 1 : m.captured(2).toInt();
        if (!m.captured(3).isEmpty())
            QCOMPARE(m.captured(3).toInt(), combines + 1);
        QVERIFY2(md.contains(QStringLiteral(" requests in %1 stages · ").arg(combines + 1)),
                 qPrintable(md.right(400)));
        // Each part holds less than one context of the document: at least 100 parts.
        QVERIFY2(parts >= 100, qPrintable(QString::number(parts)));
        QVERIFY(combines >= 1);
        static const QRegularExpression range(QStringLiteral("^(\\d+)(?:–(\\d+))?"));
        int next = 1, listed = 0;
        for (const QString& item : m.captured(4).split(QStringLiteral(", "))) {
            const auto rm = range.match(item);
            QVERIFY2(rm.hasMatch(), qPrintable(item));
            const int first = rm.captured(1).toInt();
            const int last = rm.captured(2).isEmpty() ? first : rm.captured(2).toInt();
            ++listed;
            if (item.contains(QStringLiteral("piece")) &&
                !item.contains(QStringLiteral("piece 1 of"))) {
                QCOMPARE(first, next - 1); // a further piece of the same page
                continue;
            }
            QCOMPARE(first, next); // consecutive: every page once, in order
            next = last + 1;
        }
        QCOMPARE(listed, parts);
        QCOMPARE(next, pages + 1);

        // Progress per request on stderr; the last request combines the whole report.
        // The count of stages is shown once certain (issue #48 §9): in the last stage.
        QVERIFY(r.err.contains(combines > 0
                                   ? QStringLiteral("stage 1 · part 1 of %1 · ").arg(parts)
                                   : QStringLiteral("stage 1/1 · part 1 of %1 · ").arg(parts)));
        QVERIFY2(r.err.contains(QStringLiteral("stage %1/%1 · part 1 of 1 · pages 1–%2 · ")
                                    .arg(combines + 1)
                                    .arg(pages)),
                 qPrintable(r.err.right(600)));
        QVERIFY(r.err.contains(QStringLiteral("min left")) ||
                r.err.contains(QStringLiteral("s left")));
    }

    // Issue #23: with a vision projector the sample report's scanned page (8) is rendered and
    // read as an image at its place; without one the summary names it as not read.
    void scannedPagesAreReadWithTheProjector() {
        FOLIO_REQUIRE_CONFORMANCE(conformance);
        const QString model = conformance + QStringLiteral("/models/ds2-vl-text-f32.gguf");
        const QString mmproj = conformance + QStringLiteral("/models/kimivl-mmproj-f32.gguf");
        const QString dir = folio::test::scratchDir(QStringLiteral("summarize-vision"));
        auto promptTokens = [](const QString& md) {
            static const QRegularExpression total(QStringLiteral("\\*(\\d+) prompt tokens"));
            const auto m = total.match(md);
            return m.hasMatch() ? m.captured(1).toLongLong() : -1;
        };
        auto summarize = [&](bool vision, QString& md) {
            const QString out =
                dir + (vision ? QStringLiteral("/vision.md") : QStringLiteral("/text.md"));
            QStringList args{
                QStringLiteral("summarize"), sample(QStringLiteral("sample-report.pdf")),
                QStringLiteral("-m"),        model,
                QStringLiteral("-o"),        out,
                QStringLiteral("-n"),        QStringLiteral("8"),
                QStringLiteral("-c"),        QStringLiteral("4096"),
                QStringLiteral("-t"),        QStringLiteral("2")};
            if (vision)
                args << QStringLiteral("--mmproj") << mmproj;
            const Run r = folio::test::runCli(args, 240000);
            QFile f(out);
            md = f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
            return r;
        };
        QString withVision, textOnly;
        const Run v = summarize(true, withVision);
        QVERIFY2(v.exitCode == 0, qPrintable(v.err.right(2000)));
        QVERIFY2(withVision.contains(
                     QStringLiteral("Scanned pages read as images by the vision model: 8.")),
                 qPrintable(withVision.right(600)));
        const Run t = summarize(false, textOnly);
        QVERIFY2(t.exitCode == 0, qPrintable(t.err.right(2000)));
        QVERIFY2(textOnly.contains(QStringLiteral("Scanned pages without a text layer, not read: 8 "
                                                  "(give --mmproj P.gguf to read them).")),
                 qPrintable(textOnly.right(600)));
        const qint64 a = promptTokens(withVision), b = promptTokens(textOnly);
        qInfo("prompt tokens: %lld with the scanned page's image, %lld without", a, b);
        // The page on the 1,024-token canvas is 988 cells (test_scanned_pages).
        QVERIFY2(b > 0 && a - b >= 900, qPrintable(QStringLiteral("%1 vs %2").arg(a).arg(b)));
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
