#pragma once
// Find in the OCR text of a document's scanned pages (issue #46 §1): the text layer is
// searched by QtPdf, pages read with OCR have no layer, so their text is searched here; each
// match gets the box of its first word on the page (PDF points) and the line around it.

#include "core/documents/document.h"

#include <QList>
#include <QRectF>
#include <QString>

namespace folio::ui {

struct OcrMatch {
    int page = -1;       // 0-based
    QRectF box;          // the first matching word's box in points; empty when no word matched
    QList<QRectF> boxes; // every word the match covers (the highlight on the page)
    QString context;     // the match with a few words around it, on one line
};

// Every match of `needle` (case-insensitive; whitespace runs match any whitespace) in the OCR
// pages of `document`, in page order.
QList<OcrMatch> findInOcrText(const Document& document, const QString& needle);

} // namespace folio::ui
