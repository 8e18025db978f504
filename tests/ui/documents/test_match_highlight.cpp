// A match highlighted on its page (issue #46 §2: "clicking a figure opens its page with the match
// highlighted"; Find's match shown): a PDF generated here plants "4,321.5" at a known place on
// page 2 (150 pt from the left, baseline 300 pt down, 18 pt type). The text layer's boxes of the
// match cover that place; in the Documents pane the highlight drawn over the rendered page covers
// the ink of the number on screen (found in a grab of the view, not from the code's layout)
// within a few pixels; Find's match gets the same box; an OCR page's words give theirs. A
// screenshot of the highlighted preview is written.
#include <QFont>
#include <QImage>
#include <QPainter>
#include <QPdfDocument>
#include <QPdfWriter>
#include <QtTest>

#include "core/documents/ocr_find.h"
#include "core/documents/page_text_boxes.h"
#include "documents/documents_pane.h"
#include "documents/highlight_pdf_view.h"
#include "find/find_bar.h"
#include "support/test_support.h"

using namespace folio::ui;

namespace {

constexpr double kX = 150;        // points from the left
constexpr double kBaseline = 300; // points from the top
constexpr int kSize = 18;         // points

QString plantedPdf() {
    const QString path =
        folio::test::scratchDir(QStringLiteral("match-highlight")) + QStringLiteral("/planted.pdf");
    QPdfWriter writer(path);
    writer.setResolution(72); // one unit = one point
    writer.setPageSize(QPageSize(QPageSize::A4));
    writer.setPageMargins(QMarginsF(0, 0, 0, 0));
    QPainter p(&writer);
    QFont font(QStringLiteral("DejaVu Sans"));
    font.setPointSize(kSize);
    p.setFont(font);
    p.setPen(Qt::black);
    p.drawText(QPointF(72, 100), QStringLiteral("Northwind figures"));
    writer.newPage();
    p.drawText(QPointF(kX, kBaseline), QStringLiteral("4,321.5"));
    p.end();
    return path;
}

QRectF united(const QList<QRectF>& boxes) {
    QRectF out;
    for (const QRectF& b : boxes)
        out = out.united(b);
    return out;
}

// The bounding box of the dark pixels (text ink) of `image` outside `background`.
QRect inkBox(const QImage& image, const QColor& background) {
    QRect box;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const QColor c = image.pixelColor(x, y);
            const bool dark = c.red() < 110 && c.green() < 110 && c.blue() < 110;
            const bool isBackground = std::abs(c.red() - background.red()) < 4 &&
                                      std::abs(c.green() - background.green()) < 4 &&
                                      std::abs(c.blue() - background.blue()) < 4;
            if (dark && !isBackground)
                box = box.united(QRect(x, y, 1, 1));
        }
    return box;
}

} // namespace

class TestMatchHighlight : public QObject {
    Q_OBJECT
    QString pdf_;

private slots:
    void initTestCase() {
        const QString xdg = folio::test::scratchDir(QStringLiteral("match-highlight-xdg"));
        qputenv("XDG_CONFIG_HOME", (xdg + QStringLiteral("/config")).toUtf8());
        qputenv("XDG_CACHE_HOME", (xdg + QStringLiteral("/cache")).toUtf8());
        qputenv("FOLIO_OCR", "off");
        pdf_ = plantedPdf();
        QVERIFY(QFile::exists(pdf_));
    }

    // The text layer's boxes of the match: where the generator drew it.
    void textLayerBoxesCoverThePlantedNumber() {
        QPdfDocument pdf;
        QCOMPARE(pdf.load(pdf_), QPdfDocument::Error::None);
        Document doc;
        doc.kind = Document::Kind::Pdf;
        doc.pageCount = 2;
        const QRectF box = united(textBoxesOnPage(pdf, doc, 1, QStringLiteral("4,321.5")));
        qInfo("4,321.5 on page 2: %.1f, %.1f, %.1f × %.1f pt", box.x(), box.y(), box.width(),
              box.height());
        QVERIFY(!box.isEmpty());
        // Starts at x = 150 pt (the first glyph's side bearing: a point or two), 18 pt digits
        // stand on the baseline at 300 pt and reach about 13 pt above it.
        QVERIFY2(box.left() >= kX - 1 && box.left() <= kX + 4,
                 qPrintable(QString::number(box.left())));
        QVERIFY2(box.bottom() >= kBaseline - 1 && box.bottom() <= kBaseline + 5,
                 qPrintable(QString::number(box.bottom())));
        QVERIFY2(box.top() >= kBaseline - kSize && box.top() <= kBaseline - 10,
                 qPrintable(QString::number(box.top())));
        // Seven characters of an 18 pt sans: 55 to 80 pt wide.
        QVERIFY2(box.width() > 55 && box.width() < 80, qPrintable(QString::number(box.width())));
        // Not on page 1; a number that is not there has no box.
        QVERIFY(textBoxesOnPage(pdf, doc, 0, QStringLiteral("4,321.5")).isEmpty());
        QVERIFY(textBoxesOnPage(pdf, doc, 1, QStringLiteral("4,321.6")).isEmpty());
    }

    // An OCR page: the boxes of the words the match covers, a number OCR split at its comma too.
    void ocrWordsGiveTheirBoxes() {
        using folio::ocr::OcrWord;
        const QList<OcrWord> words = {{QStringLiteral("Revenue"), QRectF(72, 100, 60, 12), 95},
                                      {QStringLiteral("4,"), QRectF(140, 100, 10, 12), 90},
                                      {QStringLiteral("321.5"), QRectF(152, 100, 34, 12), 90},
                                      {QStringLiteral("million"), QRectF(190, 100, 40, 12), 96}};
        QCOMPARE(wordBoxesOfMatch(words, QStringLiteral("4,321.5")),
                 (QList<QRectF>{QRectF(140, 100, 10, 12), QRectF(152, 100, 34, 12)}));
        QCOMPARE(wordBoxesOfMatch(words, QStringLiteral("321.5 MILLION")),
                 (QList<QRectF>{QRectF(152, 100, 34, 12), QRectF(190, 100, 40, 12)}));
        QVERIFY(wordBoxesOfMatch(words, QStringLiteral("4,321.6")).isEmpty());
        // Find in OCR text gives every word of its match too.
        Document doc;
        doc.kind = Document::Kind::Pdf;
        doc.pageCount = 1;
        doc.pageTexts = {QStringLiteral("Revenue 4, 321.5 million")};
        PageOrigin ocr;
        ocr.source = PageOrigin::Source::Ocr;
        doc.pageOrigins = {ocr};
        doc.pageWords.insert(0, words);
        const QList<OcrMatch> found = findInOcrText(doc, QStringLiteral("321.5 million"));
        QCOMPARE(found.size(), 1);
        QCOMPARE(found[0].boxes,
                 (QList<QRectF>{QRectF(152, 100, 34, 12), QRectF(190, 100, 40, 12)}));
    }

    // In the pane: the highlight over the rendered page covers the number's ink.
    void thePreviewHighlightsTheMatch() {
        DocumentsPane pane;
        pane.resize(460, 760);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        pane.openFiles({pdf_});
        QTRY_COMPARE_WITH_TIMEOUT(pane.documents().value(0).state, Document::State::Ready, 20000);
        HighlightPdfView* view = pane.pdfView();
        QVERIFY(view);
        QTRY_VERIFY(view->isVisible() && view->document() &&
                    view->document()->status() == QPdfDocument::Status::Ready);

        QVERIFY(pane.showMatch(0, 2, QStringLiteral("4,321.5")));
        QTRY_COMPARE(view->highlightPage(), 1);
        QCOMPARE(pane.previewPage(), 2);
        const QList<QRectF> rects = view->highlightRectsInViewport();
        // QtPdf's seven character boxes, joined into one for the line.
        QCOMPARE(rects.size(), 1);
        const QRectF drawn = united(rects);
        QVERIFY2(view->viewport()->rect().contains(drawn.toAlignedRect()),
                 qPrintable(QStringLiteral("%1,%2 %3x%4")
                                .arg(drawn.x())
                                .arg(drawn.y())
                                .arg(drawn.width())
                                .arg(drawn.height())));

        // The number's ink on screen, from a grab without the highlight (the page rendered).
        const QColor background = view->palette().color(QPalette::Dark);
        const QList<QRectF> boxes = view->highlightBoxes();
        view->clearHighlight();
        QRect ink;
        QTRY_VERIFY_WITH_TIMEOUT(
            !(ink = inkBox(view->viewport()->grab().toImage(), background)).isEmpty(), 10000);
        qInfo("ink %d,%d %dx%d; highlight %.1f,%.1f %.1fx%.1f", ink.x(), ink.y(), ink.width(),
              ink.height(), drawn.x(), drawn.y(), drawn.width(), drawn.height());
        constexpr double tolerance = 3; // pixels
        QVERIFY(drawn.left() <= ink.left() + tolerance);
        QVERIFY(drawn.top() <= ink.top() + tolerance);
        QVERIFY(drawn.right() >= ink.right() + 1 - tolerance);
        QVERIFY(drawn.bottom() >= ink.bottom() + 1 - tolerance);
        // And hugs it: no more than a few pixels beyond the ink on any side.
        QVERIFY(drawn.left() >= ink.left() - 6);
        QVERIFY(drawn.top() >= ink.top() - 8);
        QVERIFY(drawn.right() <= ink.right() + 1 + 6);
        QVERIFY(drawn.bottom() <= ink.bottom() + 1 + 8);

        // Screenshot of the highlighted preview.
        view->setHighlight(1, boxes);
        QTest::qWait(50);
        const QString shots = qEnvironmentVariable("FOLIO_SHOTS_DIR");
        const QString shot =
            (shots.isEmpty() ? folio::test::scratchDir(QStringLiteral("match-highlight-shot"))
                             : shots) +
            QStringLiteral("/match-highlight.png");
        QVERIFY(pane.grab().save(shot));
        qInfo("screenshot: %s", qPrintable(shot));

        // Showing a page without a match clears the highlight.
        QVERIFY(pane.showPage(0, 1));
        QCOMPARE(view->highlightPage(), -1);

        // Find's match gets the same box.
        std::unique_ptr<Searcher> searcher = pdfSearcher(view);
        int current = 0;
        QTRY_VERIFY_WITH_TIMEOUT(searcher->find(QStringLiteral("4,321.5"), 1, &current) > 0, 10000);
        QCOMPARE(current, 1);
        QCOMPARE(view->highlightPage(), 1);
        const QRectF found = united(view->highlightRectsInViewport());
        QVERIFY2(std::abs(found.left() - drawn.left()) < 4 &&
                     std::abs(found.width() - drawn.width()) < 6 &&
                     std::abs(found.height() - drawn.height()) < 6,
                 qPrintable(QStringLiteral("%1,%2 %3x%4")
                                .arg(found.x())
                                .arg(found.y())
                                .arg(found.width())
                                .arg(found.height())));
        searcher->clear();
        QCOMPARE(view->highlightPage(), -1);
    }
};

QTEST_MAIN(TestMatchHighlight)
#include "test_match_highlight.moc"
