// PDF pages rendered for the vision projector (issue #23): the canvas rule against hand-computed
// sizes (A4, US Letter, landscape, extreme strips), and the generated sample report's scanned
// page (found through its missing text layer) rendered off the GUI thread onto that canvas:
// the expected size, RGB8 bytes, and ink on it (not blank); bad input gives messages.
#include <QImage>
#include <QPdfDocument>
#include <QSet>
#include <QThread>
#include <QtConcurrent>
#include <QtTest>

#include "core/documents/document_loader.h"
#include "core/pipeline/page_render.h"
#include "support/test_support.h"

#include <cmath>

using namespace folio::ui;

namespace {

QString sample(const QString& name) {
    return folio::test::builtProgram(QStringLiteral("generated/samples/") + name);
}

struct Ink {
    double darkFraction = 0; // pixels with luma < 128
    int distinctLumas = 0;
};

Ink inkOf(const RenderedPage& p) {
    Ink ink;
    qint64 dark = 0;
    QSet<int> lumas;
    const size_t n = static_cast<size_t>(p.width) * static_cast<size_t>(p.height);
    for (size_t i = 0; i < n; ++i) {
        const uint8_t* px = p.rgb.data() + 3 * i;
        const int luma = (299 * px[0] + 587 * px[1] + 114 * px[2]) / 1000;
        if (luma < 128)
            ++dark;
        lumas.insert(luma);
    }
    ink.darkFraction = n ? double(dark) / double(n) : 0;
    ink.distinctLumas = static_cast<int>(lumas.size());
    return ink;
}

} // namespace

class TestPageRender : public QObject {
    Q_OBJECT
private slots:
    // Hand-computed: scale s = 28·sqrt(1024 / (w·h)), each side floor(side·s / 28)·28.
    void canvasRule() {
        const PageRenderParams kimi; // 14 × 2 = 28 px per token side, 1024 tokens
        QCOMPARE(kimi.align(), 28);
        // A4 595.28 × 841.89 pt: s = 1.26568; 753.4/28 = 26.91 → 26; 1065.6/28 = 38.06 → 38
        QCOMPARE(pageCanvasSize(QSizeF(595.28, 841.89), kimi), QSize(728, 1064)); // 988 tokens
        // US Letter 612 × 792: s = 1.28696; 787.6/28 = 28.13 → 28; 1019.3/28 = 36.40 → 36
        QCOMPARE(pageCanvasSize(QSizeF(612, 792), kimi), QSize(784, 1008)); // 1008 tokens
        // A4 landscape: the sides swap
        QCOMPARE(pageCanvasSize(QSizeF(841.89, 595.28), kimi), QSize(1064, 728));
        // a square page: exactly 32 × 32 tokens (sqrt(1024) = 32 must not round down to 31)
        QCOMPARE(pageCanvasSize(QSizeF(500, 500), kimi), QSize(896, 896));
        // a smaller budget: 256 tokens on a square → 16 × 16
        PageRenderParams small = kimi;
        small.maxTokens = 256;
        QCOMPARE(pageCanvasSize(QSizeF(300, 300), small), QSize(448, 448));
        // a strip 64000 × 10: one token high, at most 1024 wide
        QCOMPARE(pageCanvasSize(QSizeF(64000, 10), kimi), QSize(1024 * 28, 28));
        // bad input: no size
        QVERIFY(pageCanvasSize(QSizeF(0, 100), kimi).isEmpty());
        QVERIFY(pageCanvasSize(QSizeF(100, 100), PageRenderParams{14, 2, 0}).isEmpty());
    }

    void scannedPageRendersAtProjectorResolution() {
        const QString path = sample(QStringLiteral("sample-report.pdf"));
        QVERIFY2(QFile::exists(path), qPrintable(path));
        const Document doc = loadDocument(path);
        QCOMPARE(doc.state, Document::State::Ready);
        const QList<int> scanned = pagesWithoutTextLayer(doc);
        QCOMPARE(scanned.size(), doc.pagesWithoutText());
        QVERIFY2(!scanned.isEmpty(), "the sample report should have a scanned page");
        const int page = scanned.first();
        QVERIFY(doc.pageTexts[page].trimmed().isEmpty());

        QPdfDocument pdf;
        QCOMPARE(pdf.load(path), QPdfDocument::Error::None);
        const QSizeF points = pdf.pagePointSize(page);
        qInfo("scanned page %d of %d: %.2f x %.2f pt", page + 1, doc.pageCount, points.width(),
              points.height());

        const PageRenderParams params; // kimivl: 28 px cells, 1024 tokens
        QThread* gui = QThread::currentThread();
        QThread* renderedOn = nullptr;
        QFuture<RenderedPage> future = QtConcurrent::run([&renderedOn, path, page, params] {
            renderedOn = QThread::currentThread();
            return renderPdfPage(path, page, params);
        });
        // the async entry point renders the same page in the pool too
        QFuture<RenderedPage> viaApi = renderPdfPageAsync(path, page, params);
        const RenderedPage r = future.result();
        QVERIFY(renderedOn != gui);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(r.page, page);
        // Size: a multiple of 28 each side, within 1024 tokens, one more cell on both sides
        // would not fit, and the page's aspect ratio within one cell.
        QCOMPARE(r.width % 28, 0);
        QCOMPARE(r.height % 28, 0);
        QVERIFY(r.tokens(params) <= 1024);
        QVERIFY((r.width / 28 + 1) * (r.height / 28 + 1) > 1024);
        const double aspect = points.width() / points.height();
        QVERIFY(std::abs(r.width - aspect * r.height) <= 28 * (1 + aspect));
        if (std::abs(points.width() - 595.28) < 1 && std::abs(points.height() - 841.89) < 1) {
            QCOMPARE(r.width, 728); // A4, hand-computed above
            QCOMPARE(r.height, 1064);
        }
        QCOMPARE(r.rgb.size(), size_t(r.width) * size_t(r.height) * 3);

        // Not blank: a scanned statement has text-like ink and more than a couple of tones.
        const Ink ink = inkOf(r);
        qInfo("render %dx%d (%d tokens): %.2f%% dark pixels, %d distinct lumas", r.width, r.height,
              r.tokens(params), 100 * ink.darkFraction, ink.distinctLumas);
        QVERIFY2(ink.darkFraction > 0.002, "the render is blank");
        QVERIFY(ink.darkFraction < 0.6);
        QVERIFY(ink.distinctLumas > 8);

        const RenderedPage again = viaApi.result();
        QVERIFY(again.ok());
        QCOMPARE(again.width, r.width);
        QVERIFY(again.rgb == r.rgb); // deterministic

        // the bytes are the QImage's pixels: spot-check against a QImage made from them
        const QImage image(r.rgb.data(), r.width, r.height, r.width * 3, QImage::Format_RGB888);
        QCOMPARE(image.pixelColor(r.width / 2, r.height / 2).red(),
                 int(r.rgb[(size_t(r.height / 2) * size_t(r.width) + size_t(r.width / 2)) * 3]));
    }

    void aTextPageIsNotScanned() {
        const Document doc = loadDocument(sample(QStringLiteral("sample-report.pdf")));
        QVERIFY(!pagesWithoutTextLayer(doc).contains(0));
        Document image;
        image.kind = Document::Kind::Image;
        image.pageTexts = {QString()};
        QVERIFY(pagesWithoutTextLayer(image).isEmpty()); // images are not PDF pages
    }

    void badInputIsAMessage() {
        const PageRenderParams params;
        RenderedPage r = renderPdfPage(QStringLiteral("/nonexistent/report.pdf"), 0, params);
        QVERIFY(!r.ok());
        QVERIFY(r.error.contains(QStringLiteral("Cannot open")));
        QVERIFY(r.rgb.empty());
        r = renderPdfPage(sample(QStringLiteral("sample-report.pdf")), 999, params);
        QVERIFY(!r.ok());
        QVERIFY2(r.error.contains(QStringLiteral("no page 1000")), qPrintable(r.error));
    }
};

QTEST_MAIN(TestPageRender)
#include "test_page_render.moc"
