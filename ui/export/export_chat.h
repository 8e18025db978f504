#pragma once
// "Export summary…": writes a chat as Markdown, HTML, PDF or JSON, chosen by the file suffix.

#include "export/transcript_export.h"

#include <QString>

namespace folio::ui {

enum class ExportFormat { Markdown, Html, Pdf, Json };

// By suffix: .md/.markdown, .html/.htm, .pdf, .json; Markdown otherwise.
ExportFormat exportFormatForPath(const QString& path);
// The file dialog's filter list, Markdown first.
QString exportFileFilters();

// Writes atomically; returns an empty string on success, else a message for the user. A
// failure leaves an earlier file at `path` intact.
QString exportChat(const QString& path, const ChatSession& chat, const ExportContext& context);

} // namespace folio::ui
