// Which pages need OCR (core/ocr/page_classify): no text layer, or a junk one (almost no letters
// for the page's area, or mostly symbols), against hand-made layers; the generated sample report
// (seven pages with text, the last a scan) and a long report's scanned pages; script detection
// and the accuracy measure used by the OCR tests.
#include <QPdfDocument>
#include <QtTest>

#include "core/ocr/char_accuracy.h"
#include "core/ocr/page_classify.h"
#include "core/ocr/page_raster.h"
#include "core/ocr/script_detect.h"
#include "support/test_support.h"

using namespace folio::ocr;

namespace {
const QSizeF kA4(595.28, 841.89);
}

class TestOcrClassify : public QObject {
    Q_OBJECT
private slots:
    void handMadeLayers_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QSizeF>("size");
        QTest::addColumn<int>("expected");
        const int good = int(TextLayer::Good), missing = int(TextLayer::Missing),
                  junk = int(TextLayer::Junk);
        QTest::newRow("empty") << QString() << kA4 << missing;
        QTest::newRow("whitespace") << QStringLiteral(" \n\t \r\n") << kA4 << missing;
        QTest::newRow("symbols only") << QStringLiteral("- . | _ / ·") << kA4 << missing;
        // A4 is 93.2 square inches: under 9.3 letters is junk.
        QTest::newRow("stamped page number") << QStringLiteral("Page 7") << kA4 << junk;
        QTest::newRow("nine letters") << QStringLiteral("ABCDE 1234") << kA4 << junk;
        QTest::newRow("short title") << QStringLiteral("Annual Report 2025") << kA4 << good;
        QTest::newRow("two Chinese words") << QStringLiteral("年度报告") << kA4 << junk;
        QTest::newRow("Chinese title")
            << QStringLiteral("北风仪器有限公司二零二五年度报告") << kA4 << good;
        QTest::newRow("replacement chars")
            << QString(40, QChar(0xFFFD)) + QStringLiteral("abc") << kA4 << junk;
        QTest::newRow("private use glyphs")
            << QString(60, QChar(0xE012)) + QStringLiteral(" Revenue 2025 rose") << kA4 << junk;
        QTest::newRow("mostly punctuation")
            << QStringLiteral("...,,,;;;:::!!!---+++===***~~~") + QStringLiteral("Revenue12") << kA4
            << junk;
        QTest::newRow("prose")
            << QStringLiteral("Group revenue for the year rose to 412 million pounds, an increase "
                              "of eleven percent.")
            << kA4 << good;
        // The same dozen letters are enough on a small label, not on a poster.
        QTest::newRow("small label") << QStringLiteral("Lot 12345678") << QSizeF(144, 72) << good;
        QTest::newRow("poster") << QStringLiteral("Lot 12345678 Halden") << QSizeF(2384, 3370)
                                << junk;
        QTest::newRow("invalid size is A4") << QStringLiteral("Page 7") << QSizeF() << junk;
    }
    void handMadeLayers() {
        QFETCH(QString, text);
        QFETCH(QSizeF, size);
        QFETCH(int, expected);
        QCOMPARE(int(classifyTextLayer(text, size)), expected);
        QCOMPARE(needsOcr(text, size), expected != int(TextLayer::Good));
    }

    void sampleReport() {
        const QString path =
            folio::test::builtProgram(QStringLiteral("generated/samples/sample-report.pdf"));
        if (!QFileInfo::exists(path)) {
            if (folio::test::isCi())
                QFAIL(qPrintable(QStringLiteral("test input missing under CI=true: ") + path));
            QSKIP("sample report not built");
        }
        QPdfDocument pdf;
        QCOMPARE(pdf.load(path), QPdfDocument::Error::None);
        QCOMPARE(pdf.pageCount(), 8);
        for (int p = 0; p < pdf.pageCount(); ++p) {
            const TextLayer layer =
                classifyTextLayer(pdf.getAllText(p).text(), pdf.pagePointSize(p));
            QCOMPARE(textLayerName(layer), p == 7 ? "missing" : "good");
        }
    }

    void longReportScans() {
        const QString path =
            folio::test::builtProgram(QStringLiteral("generated/samples/long-report-300.pdf"));
        if (!QFileInfo::exists(path)) {
            if (folio::test::isCi())
                QFAIL(qPrintable(QStringLiteral("test input missing under CI=true: ") + path));
            QSKIP("long report not built");
        }
        QPdfDocument pdf;
        QCOMPARE(pdf.load(path), QPdfDocument::Error::None);
        int needing = 0;
        for (int p = 0; p < pdf.pageCount(); ++p)
            needing += needsOcr(pdf.getAllText(p).text(), pdf.pagePointSize(p)) ? 1 : 0;
        // tools/sample/long_report: a scanned page every scanEvery pages from page 3 on.
        QVERIFY2(needing > 0 && needing < pdf.pageCount() / 4,
                 qPrintable(QString::number(needing)));
    }

    void rasterSizes() {
        // A4 at 300 dpi: 2480 x 3507.
        RasterSize s = rasterSize(kA4);
        QCOMPARE(s.pixels, QSize(2480, 3507));
        QCOMPARE(s.dpi, 300.0);
        // A0 (2384 x 3370 pt) is capped: 8000 px on the longer side at most, 40 MP at most.
        s = rasterSize(QSizeF(2384, 3370));
        QVERIFY(s.dpi < 300);
        QVERIFY(s.pixels.height() <= 8000);
        QVERIFY(qint64(s.pixels.width()) * s.pixels.height() <= 40ll * 1000 * 1000);
        // A long strip: the side cap.
        s = rasterSize(QSizeF(200, 20000));
        QVERIFY(s.pixels.height() <= 8000);
        QVERIFY(rasterSize(QSizeF()).pixels.isEmpty());
        QVERIFY(rasterSize(QSizeF(0, 100)).pixels.isEmpty());
    }

    void scripts() {
        QCOMPARE(languagesForText(QStringLiteral("Revenue rose 12% to $3.2 billion")),
                 QStringLiteral("eng"));
        QCOMPARE(
            languagesForText(QStringLiteral("各区人民政府，市政府各部门：现就有关事项通知如下。")),
            QStringLiteral("chi_sim"));
        QCOMPARE(languagesForText(QStringLiteral("Northwind 北风仪器 annual report 年度报告 2025")),
                 QStringLiteral("eng+chi_sim"));
        QCOMPARE(languagesForText(QString()), QStringLiteral("eng"));
        QCOMPARE(joinCjkSpaces(QStringLiteral("各 区 人民 政府 ， Folio reads 2 pages\n通 知")),
                 QStringLiteral("各区人民政府， Folio reads 2 pages\n通知"));
        QString error;
        QVERIFY(validLanguageSpec(QStringLiteral("eng+chi_sim"), &error));
        QVERIFY(validLanguageSpec(QStringLiteral("auto"), &error));
        QVERIFY(!validLanguageSpec(QStringLiteral("eng;chi"), &error));
        QVERIFY(!validLanguageSpec(QStringLiteral("../eng"), &error));
        QVERIFY(!validLanguageSpec(QStringLiteral("eng+"), &error));
    }

    void accuracyMeasure() {
        QCOMPARE(editDistance(QStringLiteral("kitten"), QStringLiteral("sitting")), 3);
        QCOMPARE(editDistance(QString(), QStringLiteral("abc")), 3);
        QCOMPARE(characterAccuracy(QStringLiteral("通知如下。"), QStringLiteral("通 知\n如下。")),
                 1.0);
        // Full-width and ASCII punctuation are the same mark (NFKC).
        QCOMPARE(characterAccuracy(QStringLiteral("单位，部门"), QStringLiteral("单位,部门")), 1.0);
        QCOMPARE(characterAccuracy(QStringLiteral("abcdefghij"), QStringLiteral("abcdefghiX")),
                 0.9);
        QCOMPARE(characterAccuracy(QStringLiteral("abc"), QStringLiteral("abcdefghijk")), 0.0);
        QCOMPARE(characterAccuracy(QString(), QStringLiteral("x")), 0.0);
    }
};

QTEST_MAIN(TestOcrClassify)
#include "test_ocr_classify.moc"
