#pragma once
// Tool calls as the chat shows and exports them: a call's result cut for display, its row
// count, the calls of an answer as Markdown.

#include "core/chat/tool_call_record.h"

#include <QList>
#include <QString>

namespace folio::ui {

// The result for display: the Markdown table cut to `maxRows` rows (and cells to
// `maxCellChars`), followed by a line saying how many rows were left out.
QString displayResult(const QString& result, int maxRows = 12, int maxCellChars = 60);
// Number of data rows of a Markdown table result (0 for an error).
int resultRows(const QString& result);
// The calls as Markdown for exports: the SQL as a code block, then the (truncated) table.
QString toolCallsMarkdown(const QList<ToolCallRecord>& calls);

} // namespace folio::ui
