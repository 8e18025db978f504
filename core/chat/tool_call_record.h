#pragma once
// A tool call the model made during an answer (the built-in read-only SQL tool) and what the
// tool returned: what AgentTurnRunner reports as it happens and the chat keeps with the answer
// (display and export helpers: chat/tool_call.h).

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

} // namespace folio::ui

Q_DECLARE_METATYPE(folio::ui::ToolCallRecord)
