#pragma once
// Where a piece of text stands on a page (issue #46 §2: "clicking a figure opens its page with the
// match highlighted"; Find's match shown): the boxes, in PDF points from the page's top left, of
// the first match of `needle` on page `page` (0-based) — from the text layer (QtPdf's character
// boxes) or, for a page read with OCR, from the words Tesseract found (Document::pageWords).
// Case-insensitive; a run of white space matches any white space, and none between a number's
// digits and its separators ("1,186" finds "1, 186" as OCR may split it). Empty when the page
// does not hold it.

#include "core/documents/document.h"

#include <QList>
#include <QRectF>
#include <QString>

class QPdfDocument;

namespace folio::ui {

// `pdf` is the document's file opened with QtPdf (its text layer); `document` says which pages
// are OCR text and holds their words.
QList<QRectF> textBoxesOnPage(QPdfDocument& pdf, const Document& document, int page,
                              const QString& needle);

// The boxes of the words of `words` that a match of `needle` in their text covers (OCR pages).
QList<QRectF> wordBoxesOfMatch(const QList<ocr::OcrWord>& words, const QString& needle);

} // namespace folio::ui
