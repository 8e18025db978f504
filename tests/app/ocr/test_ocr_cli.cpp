// `folio-cli pages` and `folio-cli bench-ocr` (issue #46 §1, headless): the sample report's
// pages printed with their source (text layer, or OCR with its mean confidence), OCR off and
// always, a second run taking the scanned page from the cache, page ranges and bad input with
// clear messages; the bench prints pages per second and the character accuracy.
#include <QRegularExpression>
#include <QtTest>

#include "support/test_support.h"

using folio::test::runCli;

namespace {

QString samplePdf() {
    return folio::test::builtProgram(QStringLiteral("generated/samples/sample-report.pdf"));
}

} // namespace

class TestOcrCli : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        if (folio::test::underThreadSanitizer())
            QSKIP("starts folio-cli (QProcess), which LLVM 14's TSan aborts in");
        for (const QString& path :
             {samplePdf(), folio::test::builtProgram(QStringLiteral("app/folio-cli"))}) {
            if (!QFileInfo::exists(path)) {
                if (folio::test::isCi())
                    QFAIL(qPrintable(QStringLiteral("test input missing under CI=true: ") + path));
                QSKIP(qPrintable(QStringLiteral("test input missing: ") + path));
            }
        }
    }

    void pagesWithSources() {
        const QString cache = folio::test::scratchDir(QStringLiteral("ocr-cli-cache"));
        const QStringList args = {QStringLiteral("pages"),       samplePdf(),
                                  QStringLiteral("--pages"),     QStringLiteral("6-8"),
                                  QStringLiteral("--cache-dir"), cache};
        auto r = runCli(args, 300000);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("=== page 6 of 8 · text layer ===")),
                 qPrintable(r.out));
        QVERIFY(r.out.contains(QStringLiteral("=== page 7 of 8 · text layer ===")));
        QVERIFY(!r.out.contains(QStringLiteral("=== page 5 of 8")));
        // The sample report has English and Chinese text pages: its scans are read with both.
        const QRegularExpression ocrHeader(QStringLiteral(
            "=== page 8 of 8 · OCR \\(eng\\+chi_sim, mean confidence (\\d+\\.\\d)\\) ==="));
        const QRegularExpressionMatch m = ocrHeader.match(r.out);
        QVERIFY2(m.hasMatch(), qPrintable(r.out));
        QVERIFY(m.captured(1).toDouble() > 70);
        QVERIFY(r.out.contains(QLatin1String("Independent auditor's statement")));
        QVERIFY(r.out.contains(QLatin1String("Hartley & Rowe LLP")));
        QVERIFY(r.err.contains(QLatin1String("OCR: 1/1 pages")));

        // Again: from the cache.
        r = runCli(args, 60000);
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(QLatin1String("mean confidence ")) &&
                     r.out.contains(QLatin1String(", cached) ===")),
                 qPrintable(r.out));

        // OCR off: the missing layer is said, no text invented.
        r = runCli({QStringLiteral("pages"), samplePdf(), QStringLiteral("--pages"),
                    QStringLiteral("8"), QStringLiteral("--ocr"), QStringLiteral("off")},
                   60000);
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.startsWith(QStringLiteral("=== page 8 of 8 · text layer (missing; OCR "
                                                 "off) ===")),
                 qPrintable(r.out));
        QVERIFY(!r.out.contains(QLatin1String("auditor")));

        // OCR always, a given language, no cache: a text page read by Tesseract too.
        r = runCli({QStringLiteral("pages"), samplePdf(), QStringLiteral("--pages"),
                    QStringLiteral("7"), QStringLiteral("--ocr"), QStringLiteral("always"),
                    QStringLiteral("--lang"), QStringLiteral("eng"), QStringLiteral("--no-cache"),
                    QStringLiteral("--quiet")},
                   300000);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("=== page 7 of 8 · OCR (eng, mean confidence")),
                 qPrintable(r.out));
        QVERIFY(r.out.contains(QLatin1String("Outlook and principal risks")));
        QVERIFY(r.err.isEmpty() || !r.err.contains(QLatin1String("OCR: ")));
    }

    void badInput() {
        auto r = runCli({QStringLiteral("pages"), samplePdf(), QStringLiteral("--pages"),
                         QStringLiteral("7-12")},
                        60000);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QLatin1String("page 12 is past the end (the document has 8 "
                                              "pages)")),
                 qPrintable(r.err));
        r = runCli({QStringLiteral("pages"), samplePdf(), QStringLiteral("--pages"),
                    QStringLiteral("x-3")},
                   60000);
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains(QLatin1String("is not a page range")));
        r = runCli({QStringLiteral("pages"), samplePdf(), QStringLiteral("--pages"),
                    QStringLiteral("8"), QStringLiteral("--lang"), QStringLiteral("xq_bogus"),
                    QStringLiteral("--no-cache")},
                   60000);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QLatin1String("install Debian's tesseract-ocr-xq-bogus")),
                 qPrintable(r.err));
        r = runCli({QStringLiteral("pages"), samplePdf(), QStringLiteral("--ocr"),
                    QStringLiteral("sometimes")},
                   60000);
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains(QLatin1String("--ocr must be auto, always or off")));
        const QString junk =
            folio::test::scratchDir(QStringLiteral("ocr-cli-bad")) + QStringLiteral("/junk.pdf");
        QFile f(junk);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("not a pdf");
        f.close();
        r = runCli({QStringLiteral("pages"), junk}, 60000);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QLatin1String("junk.pdf: not a readable PDF")), qPrintable(r.err));
        r = runCli({QStringLiteral("pages")}, 60000);
        QCOMPARE(r.exitCode, 2);
    }

    void bench() {
        const auto r = runCli(
            {QStringLiteral("bench-ocr"), QStringLiteral("--pages"), QStringLiteral("1")}, 300000);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        qInfo("%s", qPrintable(r.out));
        const QRegularExpression line(QStringLiteral("chinese\\s+1 pages\\s+[\\d.]+ s\\s+([\\d.]+) "
                                                     "pages/s\\s+character accuracy ([\\d.]+)"));
        const QRegularExpressionMatch m = line.match(r.out);
        QVERIFY2(m.hasMatch(), qPrintable(r.out));
        QVERIFY(m.captured(1).toDouble() > 0);
        QVERIFY(m.captured(2).toDouble() >= 0.95);
        QVERIFY(r.out.contains(QRegularExpression(QStringLiteral("english\\s+1 pages"))));
        QVERIFY(r.out.contains(QLatin1String("pages/s at 2 threads")));
    }
};

QTEST_MAIN(TestOcrCli)
#include "test_ocr_cli.moc"
