// DocumentsPane: a match shown on its page (issue #46 §2) — a checked figure opened from the
// transcript or the table dialog, highlighted where the page has it (core/documents/
// page_text_boxes.h) in the preview's HighlightPdfView.
#include "documents/documents_pane.h"

#include "core/documents/page_text_boxes.h"
#include "documents/highlight_pdf_view.h"

#include <QListWidget>
#include <QPdfDocument>

namespace folio::ui {

bool DocumentsPane::showMatch(int row, int page, const QString& text) {
    if (row < 0)
        row = rowWithPage(page);
    if (!showPage(row, page))
        return false;
    if (pendingPage_ > 0) {
        pendingMatch_ = text; // highlighted once the preview has the document
        return true;
    }
    highlightMatch(page, text); // the preview shows it already
    return true;
}

void DocumentsPane::highlightMatch(int page, const QString& text) {
    const int row = list_->currentRow();
    if (text.trimmed().isEmpty() || row < 0 || row >= docs_->count() || !pdfDocument_) {
        pdfView_->clearHighlight();
        return;
    }
    const QList<QRectF> boxes =
        textBoxesOnPage(*pdfDocument_, docs_->documents()[row], page - 1, text);
    pdfView_->setHighlight(page - 1, boxes);
    pdfView_->scrollToHighlight();
}

} // namespace folio::ui
