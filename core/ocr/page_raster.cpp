#include "core/ocr/page_raster.h"

#include <QPainter>
#include <QPdfDocument>

#include <algorithm>
#include <cmath>

namespace folio::ocr {

RasterSize rasterSize(QSizeF pagePoints, const RasterParams& params) {
    if (!pagePoints.isValid() || pagePoints.isEmpty() || params.dpi <= 0)
        return {};
    double dpi = params.dpi;
    const double longer = std::max(pagePoints.width(), pagePoints.height()) / 72.0;
    if (longer * dpi > params.maxSide)
        dpi = params.maxSide / longer;
    const double area = pagePoints.width() * pagePoints.height() / (72.0 * 72.0);
    if (area * dpi * dpi > double(params.maxPixels))
        dpi = std::sqrt(double(params.maxPixels) / area);
    const QSize pixels(std::max(1, int(std::floor(pagePoints.width() / 72.0 * dpi))),
                       std::max(1, int(std::floor(pagePoints.height() / 72.0 * dpi))));
    return {pixels, dpi};
}

RasterPage renderPageGrey(QPdfDocument& pdf, int page, const RasterParams& params) {
    RasterPage out;
    if (page < 0 || page >= pdf.pageCount()) {
        out.error = QStringLiteral("page %1 does not exist (the document has %2)")
                        .arg(page + 1)
                        .arg(pdf.pageCount());
        return out;
    }
    const RasterSize size = rasterSize(pdf.pagePointSize(page), params);
    if (size.pixels.isEmpty()) {
        out.error = QStringLiteral("page %1 has no size").arg(page + 1);
        return out;
    }
    const QImage rendered = pdf.render(page, size.pixels);
    if (rendered.isNull()) {
        out.error = QStringLiteral("page %1 could not be rendered (%2x%3 pixels)")
                        .arg(page + 1)
                        .arg(size.pixels.width())
                        .arg(size.pixels.height());
        return out;
    }
    // PDFium leaves the page transparent where nothing is drawn: put it on white paper.
    QImage paper(rendered.size(), QImage::Format_RGB32);
    paper.fill(Qt::white);
    {
        QPainter p(&paper);
        p.drawImage(0, 0, rendered);
    }
    out.grey = paper.convertToFormat(QImage::Format_Grayscale8);
    out.dpi = size.dpi;
    return out;
}

} // namespace folio::ocr
