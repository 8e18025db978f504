#pragma once
// A PDF page rendered for Tesseract: 8-bit grey at about 300 dpi (where its models read best),
// fewer dots for huge pages so that one page never takes more than a bounded amount of memory.

#include <QImage>
#include <QSize>
#include <QSizeF>
#include <QString>

class QPdfDocument;

namespace folio::ocr {

struct RasterParams {
    int dpi = 300;                         // the resolution asked for
    int maxSide = 8000;                    // pixels on the longer side at most
    qint64 maxPixels = 40ll * 1000 * 1000; // 40 MP at most (40 MB of grey)
};

// The pixel size page `pagePoints` (1/72 inch) gets, and the resolution that gives it: `dpi`
// unless the page is so large that a cap applies. Empty size for an invalid page size.
struct RasterSize {
    QSize pixels;
    double dpi = 0;
};
RasterSize rasterSize(QSizeF pagePoints, const RasterParams& params = {});

struct RasterPage {
    QImage grey; // Format_Grayscale8, white where the page is blank; null on failure
    double dpi = 0;
    QString error; // names the page; empty on success
};

// Renders page `page` (0-based) of `pdf` on white, converted to grey. QtPdf serialises PDFium
// calls itself, so several threads may render (each with its own QPdfDocument).
RasterPage renderPageGrey(QPdfDocument& pdf, int page, const RasterParams& params = {});

} // namespace folio::ocr
