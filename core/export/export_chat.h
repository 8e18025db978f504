#pragma once
// "Export chat…" writes a chat (its chosen branch) and "Export summary…" the summary the
// summary job made, as Markdown, HTML, PDF or JSON, chosen by the file suffix.

#include "core/export/transcript_export.h"

#include <QDateTime>
#include <QString>

namespace folio::ui {

enum class ExportFormat { Markdown, Html, Pdf, Json };

// By suffix: .md/.markdown, .html/.htm, .pdf, .json; Markdown otherwise.
ExportFormat exportFormatForPath(const QString& path);
// The file dialog's filter list, Markdown first.
QString exportFileFilters();

// Writes atomically; returns an empty string on success, else a message for the user. A
// failure leaves an earlier file at `path` intact.
// Links to documents are relative to the folder of `path` unless context.baseDir says
// otherwise.
QString exportChat(const QString& path, const ChatSession& chat, const ExportContext& context);

// A summary by itself: its Markdown (title, summary, parts), the document it summarizes.
struct SummaryExport {
    QString title;
    QString documentPath;
    QString markdown;
    QDateTime created;
};
// Markdown as is; HTML and PDF laid out from it; JSON {"format": "folio-summary", "title",
// "document" (relative to the export), "markdown", "created"}. Written atomically.
QString exportSummary(const QString& path, const SummaryExport& summary);

} // namespace folio::ui
