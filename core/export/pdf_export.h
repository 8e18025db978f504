#pragma once
// A chat as a PDF (A4): the HTML of transcriptToHtml laid out by QTextDocument and painted page
// by page on a QPdfWriter, with a font list that covers Latin and CJK text
// (WenQuanYi Micro Hei). Written atomically.

#include <QString>

namespace folio::ui {

struct PdfExportResult {
    QString error; // empty on success
    int pages = 0;
};

PdfExportResult writeHtmlAsPdf(const QString& path, const QString& title, const QString& html);

} // namespace folio::ui
