#pragma once
// A tool call the model made during an answer (the built-in read-only SQL tool) and what the
// tool returned, as the chat keeps, shows, saves and exports it.

#include <QList>
#include <QMetaType>
#include <QString>

namespace folio::ui {

struct ToolCallRecord {
    QString id;        // "functions.sql_query:0"
    QString name;      // "sql_query"
    QString arguments; // the JSON arguments as the model wrote them
    QString result;    // the table (Markdown) or "error: ..." as the model was shown it
    bool ok = false;   // the tool ran and returned a table
    bool done = false; // a result has arrived

    // The SQL of a sql_query call ({"query": "..."}); the raw arguments otherwise.
    QString query() const;
};

// The result for display: the Markdown table cut to `maxRows` rows (and cells to
// `maxCellChars`), followed by a line saying how many rows were left out.
QString displayResult(const QString& result, int maxRows = 12, int maxCellChars = 60);
// Number of data rows of a Markdown table result (0 for an error).
int resultRows(const QString& result);
// The calls as Markdown for exports: the SQL as a code block, then the (truncated) table.
QString toolCallsMarkdown(const QList<ToolCallRecord>& calls);

} // namespace folio::ui

Q_DECLARE_METATYPE(folio::ui::ToolCallRecord)
