#pragma once
// Scanned pages as image files for the vision projector (issue #23): a page without a text
// layer is rendered on the projector's canvas (page_render.h) once and kept as a PNG under a
// folder of rendered pages, named by the document's fingerprint, the page and the canvas rule,
// so later questions (and the read-ahead of the document cache) find the same file. Any
// thread; the file is written atomically (two threads rendering the same page both write the
// same bytes).

#include "core/pipeline/page_render.h"
#include "core/pipeline/prompt_builder.h"

#include <QString>

namespace folio::ui {

struct PageImageResult {
    PageImage image; // path and tokens when ok
    QString error;   // "" on success, else for the user
    bool ok() const { return error.isEmpty(); }
};

// The folder of rendered pages: <cache location>/page-images.
QString defaultPageImageDir();

// Where scannedPageImage keeps page `page` (0-based) of the PDF with contents `fingerprint`:
// the same name for the same page and canvas rule, rendered or not yet.
QString pageImagePath(const QString& fingerprint, int page, const PageRenderParams& params,
                      const QString& dir);

// Page `page` (0-based) of the PDF at `pdfPath` (contents `fingerprint`) as an image file in
// `dir`, rendered now unless an earlier render is there.
PageImageResult scannedPageImage(const QString& pdfPath, const QString& fingerprint, int page,
                                 const PageRenderParams& params, const QString& dir);

} // namespace folio::ui
