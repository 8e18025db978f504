// Tesseract reading pages (core/ocr/tesseract_reader): the sample report's scanned page (the
// auditor's statement, drawn by tools/sample as a picture) gives the words of its source text;
// a generated scan of Simplified Chinese is read with character accuracy >= 95 % against its
// source (measured and printed); bad input gives clear errors, never a crash: a missing language
// pack names its Debian package, an unreadable image says so.
#include <QPdfDocument>
#include <QtTest>

#include "core/ocr/char_accuracy.h"
#include "core/ocr/page_classify.h"
#include "core/ocr/page_raster.h"
#include "core/ocr/scanned_pdf.h"
#include "core/ocr/script_detect.h"
#include "core/ocr/tesseract_reader.h"
#include "support/test_support.h"

using namespace folio::ocr;

namespace {

QString samplePdf() {
    return folio::test::builtProgram(QStringLiteral("generated/samples/sample-report.pdf"));
}

// The text tools/sample/make_sample.cpp draws on the scanned page (its source).
const QString kAuditorStatement = QStringLiteral(
    "Independent auditor's statement\n"
    "In our opinion the financial statements of Northwind Instruments plc give a true and fair "
    "view of the state of the group's affairs as at 31 December 2025 and of its profit for the "
    "year then ended, and have been properly prepared in accordance with the applicable "
    "framework.\n"
    "Key audit matters: revenue recognition on multi-element contracts; valuation of goodwill "
    "arising on the Halden Optics acquisition.\n"
    "Hartley & Rowe LLP, Statutory Auditor, London, 3 March 2026");

} // namespace

#define REQUIRE_FILE(path)                                                                         \
    do {                                                                                           \
        if (!QFileInfo::exists(path)) {                                                            \
            if (folio::test::isCi())                                                               \
                QFAIL(qPrintable(QStringLiteral("test input missing under CI=true: ") + (path)));  \
            QSKIP(qPrintable(QStringLiteral("test input missing: ") + (path)));                    \
        }                                                                                          \
    } while (0)

class TestOcrRead : public QObject {
    Q_OBJECT
private slots:
    void englishScannedPageOfSample() {
        const QString path = samplePdf();
        REQUIRE_FILE(path);
        QPdfDocument pdf;
        QCOMPARE(pdf.load(path), QPdfDocument::Error::None);
        const int last = pdf.pageCount() - 1;
        QCOMPARE(classifyTextLayer(pdf.getAllText(last).text(), pdf.pagePointSize(last)),
                 TextLayer::Missing);
        const RasterPage raster = renderPageGrey(pdf, last);
        QVERIFY2(!raster.grey.isNull(), qPrintable(raster.error));
        QCOMPARE(raster.grey.format(), QImage::Format_Grayscale8);
        QVERIFY(qAbs(raster.dpi - 300) < 1);

        TesseractReader reader;
        QElapsedTimer clock;
        clock.start();
        const ReadResult r = reader.read(raster.grey, raster.dpi, {});
        QVERIFY2(!r.error, qPrintable(r.error.message));
        const double accuracy = characterAccuracy(kAuditorStatement, r.page.text);
        qInfo("sample report p. %d: %.1f s, languages %s, mean confidence %.1f, %lld words, "
              "character accuracy %.4f",
              last + 1, clock.elapsed() / 1000.0, qPrintable(r.page.languages),
              double(r.page.meanConfidence), qlonglong(r.page.words.size()), accuracy);
        QCOMPARE(r.page.languages, QStringLiteral("eng+chi_sim")); // no hint: both scripts
        for (const char* word : {"auditor", "Northwind", "Instruments", "December", "goodwill",
                                 "Halden", "Optics", "Hartley", "Statutory", "London", "2025"})
            QVERIFY2(r.page.text.contains(QLatin1String(word)), word);
        QVERIFY(r.page.meanConfidence > 70);
        QVERIFY(accuracy > 0.95);
        // Word boxes in points, on the page.
        const QSizeF points = pdf.pagePointSize(last);
        QVERIFY(r.page.words.size() > 50);
        bool foundHalden = false;
        for (const OcrWord& w : r.page.words) {
            QVERIFY(w.box.left() >= 0 && w.box.top() >= 0);
            QVERIFY(w.box.right() <= points.width() + 1 && w.box.bottom() <= points.height() + 1);
            if (w.text == QLatin1String("Halden")) {
                foundHalden = true;
                QVERIFY(w.box.width() > 10 && w.box.height() > 4);
            }
        }
        QVERIFY(foundHalden);

        // The document's script known (English): the English model alone, the same text.
        const ReadResult eng =
            reader.read(raster.grey, raster.dpi, {}, nullptr, QStringLiteral("eng"));
        QVERIFY2(!eng.error, qPrintable(eng.error.message));
        QCOMPARE(eng.page.languages, QStringLiteral("eng"));
        QVERIFY(characterAccuracy(kAuditorStatement, eng.page.text) > 0.95);
    }

    void chineseScannedPageAccuracy() {
        const QString source = chineseScanText(0);
        const QString path = folio::test::scratchDir(QStringLiteral("ocr-read")) +
                             QStringLiteral("/chinese-scan.pdf");
        QString error;
        const bool written =
            writeScannedPdf(path, {{source, QStringLiteral("WenQuanYi Micro Hei"), 12}}, &error);
        if (!written && error.contains(QLatin1String("not installed")) && !folio::test::isCi())
            QSKIP(qPrintable(error));
        QVERIFY2(written, qPrintable(error));
        QPdfDocument pdf;
        QCOMPARE(pdf.load(path), QPdfDocument::Error::None);
        QCOMPARE(classifyTextLayer(pdf.getAllText(0).text(), pdf.pagePointSize(0)),
                 TextLayer::Missing);
        const RasterPage raster = renderPageGrey(pdf, 0);
        QVERIFY2(!raster.grey.isNull(), qPrintable(raster.error));
        // No hint (both models), the document's script known (chi_sim), and a wrong hint (eng:
        // read with low confidence, then again with both models).
        TesseractReader reader;
        for (const QString& hint : {QString(), QStringLiteral("chi_sim"), QStringLiteral("eng")}) {
            QElapsedTimer clock;
            clock.start();
            const ReadResult r = reader.read(raster.grey, raster.dpi, {}, nullptr, hint);
            QVERIFY2(!r.error, qPrintable(r.error.message));
            const double accuracy = characterAccuracy(source, r.page.text);
            qInfo("Chinese scan, hint '%s': %.1f s, languages %s, mean confidence %.1f, "
                  "character accuracy %.4f (%lld characters)",
                  qPrintable(hint), clock.elapsed() / 1000.0, qPrintable(r.page.languages),
                  double(r.page.meanConfidence), accuracy,
                  qlonglong(normalizedForAccuracy(source).size()));
            QCOMPARE(r.page.languages, hint == QLatin1String("chi_sim")
                                           ? QStringLiteral("chi_sim")
                                           : QStringLiteral("eng+chi_sim"));
            QVERIFY2(accuracy >= 0.95,
                     qPrintable(
                         QStringLiteral("accuracy %1, read:\n%2").arg(accuracy).arg(r.page.text)));
            QVERIFY(cjkShare(r.page.text) > 0.6);
            QCOMPARE(languagesForText(r.page.text), QStringLiteral("chi_sim"));
        }
    }

    void missingLanguageNamesPackage() {
        QImage page(600, 200, QImage::Format_Grayscale8);
        page.fill(Qt::white);
        TesseractReader reader;
        const ReadResult r = reader.read(page, 300, {QStringLiteral("xq_bogus")});
        QCOMPARE(r.error.kind, OcrErrorKind::MissingLanguage);
        QVERIFY2(r.error.message.contains(QLatin1String("tesseract-ocr-xq-bogus")),
                 qPrintable(r.error.message));
        QVERIFY(r.page.text.isEmpty());
        // One language of a list missing: that one is named, not the other.
        const OcrError e = TesseractReader::checkLanguages(QStringLiteral("eng+xq_bogus"));
        QCOMPARE(e.kind, OcrErrorKind::MissingLanguage);
        QVERIFY(e.message.contains(QLatin1String("tesseract-ocr-xq-bogus")));
        QVERIFY(!e.message.contains(QLatin1String("tesseract-ocr-eng")));
        QVERIFY(!TesseractReader::checkLanguages(QStringLiteral("eng+chi_sim")));
        QCOMPARE(TesseractReader::debianPackage(QStringLiteral("chi_sim")),
                 QStringLiteral("tesseract-ocr-chi-sim"));
        // Not a language list at all (no path tricks reach Tesseract).
        const ReadResult bad = reader.read(page, 300, {QStringLiteral("../eng")});
        QCOMPARE(bad.error.kind, OcrErrorKind::MissingLanguage);
        QVERIFY(bad.error.message.contains(QLatin1String("not a language list")));
    }

    void unreadableImageGivesError() {
        TesseractReader reader;
        // Bytes that are no image: QImage decodes nothing.
        const QImage garbage = QImage::fromData(QByteArray("\x89PNG\r\n\x1a\nnot really", 18));
        ReadResult r = reader.read(garbage, 300, {QStringLiteral("eng")});
        QCOMPARE(r.error.kind, OcrErrorKind::BadImage);
        QVERIFY(r.error.message.contains(QLatin1String("no page image")));
        r = reader.read(QImage(2, 2, QImage::Format_Grayscale8), 300, {QStringLiteral("eng")});
        QCOMPARE(r.error.kind, OcrErrorKind::BadImage);
        QVERIFY(r.error.message.contains(QLatin1String("too small")));
        QImage strip(40000, 4, QImage::Format_Grayscale8);
        strip.fill(Qt::white);
        r = reader.read(strip, 300, {QStringLiteral("eng")});
        QCOMPARE(r.error.kind, OcrErrorKind::BadImage);
        QVERIFY(r.error.message.contains(QLatin1String("limit")));
        // A blank page is not an error: it has no text.
        QImage blank(800, 1000, QImage::Format_RGB32);
        blank.fill(Qt::white);
        r = reader.read(blank, 300, {QStringLiteral("eng")});
        QVERIFY2(!r.error, qPrintable(r.error.message));
        QVERIFY(r.page.text.trimmed().isEmpty());
        // The reader is still usable after the errors.
        ScanPage line{QStringLiteral("Folio reads scanned pages"), QStringLiteral("DejaVu Sans"),
                      14};
        r = reader.read(drawScannedPage(line, {300, false}), 300, {QStringLiteral("eng")});
        QVERIFY2(!r.error, qPrintable(r.error.message));
        QVERIFY2(r.page.text.contains(QLatin1String("scanned pages")), qPrintable(r.page.text));
    }
};

QTEST_MAIN(TestOcrRead)
#include "test_ocr_read.moc"
