#pragma once
// PDF pages as images for the vision projector: a page rendered through QtPdf (off the GUI
// thread) straight onto the projector's working canvas, so the engine encodes it without
// resizing. The canvas rule is the kimivl preprocessor's (engine/model/vision/image_preprocess.h,
// after llama.cpp's tools/mtmd): sides in multiples of a = patch_size · merge, at most max_tokens
// merged tokens (w/a · h/a). The page keeps its aspect ratio and is centred on a white canvas
// (a page's own background), not stretched.

#include "core/documents/document.h"

#include <QFuture>
#include <QImage>
#include <QList>
#include <QRectF>
#include <QSize>
#include <QSizeF>
#include <QString>

#include <cstdint>
#include <vector>

namespace folio::ui {

// The projector's numbers (VisionHParams: patch_size, merge, max_tokens); kimivl's by default.
struct PageRenderParams {
    int patchSize = 14;
    int merge = 2;
    int maxTokens = 1024;
    int align() const { return patchSize * merge; }
};

struct RenderedPage {
    int page = -1; // 0-based
    int width = 0;
    int height = 0;
    std::vector<uint8_t> rgb; // width · height · 3 bytes, row-major RGB8 (folio::ImageInput)
    QString error;            // "" on success, else for the user
    bool ok() const { return error.isEmpty(); }
    int tokens(const PageRenderParams& p) const {
        return (width / p.align()) * (height / p.align());
    }
    // The pixels as a QImage that reads `rgb` in place: valid while this page lives unchanged.
    QImage imageView() const {
        return QImage(rgb.data(), width, height, width * 3, QImage::Format_RGB888);
    }
};

// The canvas a page of `pagePoints` (PDF points) is rendered on: the largest one with sides in
// multiples of a, at most maxTokens merged tokens, and the page's aspect ratio (each side
// rounded down to a multiple of a). An empty size for bad input.
QSize pageCanvasSize(QSizeF pagePoints, const PageRenderParams& params);

// Renders page `page` (0-based) of the PDF at `pdfPath` onto its canvas. Blocking; any thread
// (each call opens its own QPdfDocument).
RenderedPage renderPdfPage(const QString& pdfPath, int page, const PageRenderParams& params);
// A part of the page (`region` in fractions of its width and height, e.g. a crop the user
// selected on the preview) on the canvas of the part's own size.
RenderedPage renderPdfRegion(const QString& pdfPath, int page, QRectF region,
                             const PageRenderParams& params);
// The same in the thread pool.
QFuture<RenderedPage> renderPdfPageAsync(const QString& pdfPath, int page,
                                         const PageRenderParams& params);

// The pages (0-based) of a PDF document with no text layer (scanned pages), by the rule of
// Document::pagesWithoutText.
QList<int> pagesWithoutTextLayer(const Document& document);

} // namespace folio::ui
