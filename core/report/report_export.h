#pragma once
// A report as a document (issue #49 §4): Markdown, HTML, PDF (A4, fonts covering Chinese) and
// ODT (Qt's ODF writer; opens in Word and LibreOffice), chosen by the file's suffix. A title
// block (title, sources, model, date), contents (a section whose figures were not all found is
// flagged there), the sections with their figures' marks, citations turned into numbered notes
// that name the document and page, and the appendix of every checked figure. Written atomically.

#include "core/report/report.h"

#include <QString>

namespace folio::ui {

enum class ReportFormat { Markdown, Html, Pdf, Odt };

// By suffix: .md/.markdown, .html/.htm, .pdf, .odt; Markdown otherwise.
ReportFormat reportFormatForPath(const QString& path);

// The report as Markdown: citations as footnotes ("[^3]" and "[^3]: Annual report (a.pdf),
// p. 14"), for Markdown readers that know them.
QString reportMarkdown(const Report& report);
// The report as HTML: citations as superscript note numbers, the notes listed before the
// appendix. The body of the PDF and ODT.
QString reportHtml(const Report& report);

// "" on success, else a message for the user naming the file (an earlier file stays intact).
QString exportReport(const QString& path, const Report& report);

} // namespace folio::ui
