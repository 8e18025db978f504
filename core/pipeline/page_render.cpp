#include "core/pipeline/page_render.h"

#include <QCoreApplication>
#include <QImage>
#include <QPainter>
#include <QPdfDocument>
#include <QtConcurrent>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace folio::ui {

namespace {

QString tr(const char* text) {
    // The context lupdate gives a tr() of a function in namespace folio::ui.
    return QCoreApplication::translate("folio::ui", text);
}

} // namespace

QSize pageCanvasSize(QSizeF pagePoints, const PageRenderParams& p) {
    const double w = pagePoints.width(), h = pagePoints.height();
    const int a = p.align();
    if (!(w > 0) || !(h > 0) || a <= 0 || p.maxTokens <= 0)
        return {};
    // The scale at which the page covers exactly maxTokens cells of a × a pixels; rounding each
    // side down to whole cells keeps (W/a)·(H/a) ≤ maxTokens.
    // (The 1e-9 keeps a whole number of cells, e.g. 32 on a square page, from flooring to 31.)
    const double scale = a * std::sqrt(p.maxTokens / (w * h));
    int cols = std::max(1, static_cast<int>(std::floor(w * scale / a + 1e-9)));
    int rows = std::max(1, static_cast<int>(std::floor(h * scale / a + 1e-9)));
    // Extreme aspect ratios: one side was lifted to one cell; shrink the other to fit.
    if (static_cast<int64_t>(cols) * rows > p.maxTokens) {
        if (cols >= rows)
            cols = std::max(1, p.maxTokens / rows);
        else
            rows = std::max(1, p.maxTokens / cols);
    }
    return {cols * a, rows * a};
}

RenderedPage renderPdfPage(const QString& pdfPath, int page, const PageRenderParams& params) {
    return renderPdfRegion(pdfPath, page, QRectF(0, 0, 1, 1), params);
}

RenderedPage renderPdfRegion(const QString& pdfPath, int page, QRectF region,
                             const PageRenderParams& params) {
    RenderedPage out;
    out.page = page;
    region = region.intersected(QRectF(0, 0, 1, 1));
    if (!(region.width() > 0) || !(region.height() > 0)) {
        out.error = tr("The selected part of page %1 is empty.").arg(page + 1);
        return out;
    }
    QPdfDocument pdf;
    if (pdf.load(pdfPath) != QPdfDocument::Error::None) {
        out.error = tr("Cannot open %1 as a PDF to render its pages.").arg(pdfPath);
        return out;
    }
    if (page < 0 || page >= pdf.pageCount()) {
        out.error =
            tr("%1 has no page %2 (it has %3).").arg(pdfPath).arg(page + 1).arg(pdf.pageCount());
        return out;
    }
    const QSizeF pagePoints = pdf.pagePointSize(page);
    const QSizeF points(pagePoints.width() * region.width(), pagePoints.height() * region.height());
    const QSize canvas = pageCanvasSize(points, params);
    if (canvas.isEmpty()) {
        out.error = tr("Page %1 of %2 has no size to render.").arg(page + 1).arg(pdfPath);
        return out;
    }
    // The region at its own aspect ratio, fitted inside the canvas: the whole page is rendered
    // at the scale that gives the region that size, then cut. A small region would need a huge
    // page: the page is capped at kMaxPagePixels and the cut scaled up to fit instead.
    constexpr double kMaxPagePixels = 16.0 * 1024 * 1024;
    const QSizeF content = points.scaled(QSizeF(canvas), Qt::KeepAspectRatio);
    QSizeF full(content.width() / region.width(), content.height() / region.height());
    const double area = full.width() * full.height();
    if (area > kMaxPagePixels)
        full *= std::sqrt(kMaxPagePixels / area);
    const QSize fullSize = full.toSize().expandedTo(QSize(1, 1));
    const QImage rendered = pdf.render(page, fullSize);
    if (rendered.isNull()) {
        out.error = tr("QtPdf could not render page %1 of %2.").arg(page + 1).arg(pdfPath);
        return out;
    }
    const QRect cut = QRectF(region.x() * fullSize.width(), region.y() * fullSize.height(),
                             region.width() * fullSize.width(), region.height() * fullSize.height())
                          .toAlignedRect()
                          .intersected(rendered.rect());
    QImage part = rendered.copy(cut);
    const QSize fitted = content.toSize().boundedTo(canvas).expandedTo(QSize(1, 1));
    if (part.size() != fitted)
        part = part.scaled(fitted, Qt::KeepAspectRatio, Qt::SmoothTransformation);
    QImage image(canvas, QImage::Format_RGB888);
    image.fill(Qt::white);
    {
        QPainter painter(&image);
        painter.drawImage(
            QPoint((canvas.width() - part.width()) / 2, (canvas.height() - part.height()) / 2),
            part);
    }
    out.width = canvas.width();
    out.height = canvas.height();
    const size_t rowBytes = static_cast<size_t>(out.width) * 3;
    out.rgb.resize(rowBytes * static_cast<size_t>(out.height));
    for (int y = 0; y < out.height; ++y) // QImage rows are 4-byte aligned: copy row by row
        std::memcpy(out.rgb.data() + rowBytes * static_cast<size_t>(y), image.constScanLine(y),
                    rowBytes);
    return out;
}

QFuture<RenderedPage> renderPdfPageAsync(const QString& pdfPath, int page,
                                         const PageRenderParams& params) {
    return QtConcurrent::run(
        [pdfPath, page, params] { return renderPdfPage(pdfPath, page, params); });
}

QList<int> pagesWithoutTextLayer(const Document& document) {
    QList<int> pages;
    if (document.kind != Document::Kind::Pdf)
        return pages;
    for (int i = 0; i < document.pageTexts.size(); ++i) {
        Document one; // one page, so the rule stays Document::pagesWithoutText's
        one.pageTexts = {document.pageTexts[i]};
        if (one.pagesWithoutText() == 1)
            pages << i;
    }
    return pages;
}

} // namespace folio::ui
