#pragma once
// Tool calls (the model asks, Folio runs the tool, the model answers with the result): the
// Kimi-K2 tool-call markers parsed out of an answer, the built-in read-only SQL tool over a
// SQLite file or CSV files the user attached, and the loop that runs a turn until the model
// answers in words. std only; the UI and the CLI drive it with an Engine.

#include "folio/error.h"
#include "folio/message.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace folio {

// An answer split into its words and its tool calls. Kimi-K2's format:
// <|tool_calls_section_begin|><|tool_call_begin|>functions.NAME:IDX<|tool_call_argument_begin|>
// {json}<|tool_call_end|>...<|tool_calls_section_end|>. Tolerant of what models get wrong: a
// missing section end, text around the section, whitespace; a call without its end marker or
// with arguments that are not a JSON object is kept with `error` set (and never run).
struct ParsedCall {
    ToolCallInfo call;
    std::string error; // "" when the call is well-formed
};
struct ParsedAnswer {
    std::string content; // the text outside the tool-call section
    std::vector<ParsedCall> calls;
};
ParsedAnswer parse_tool_calls(std::string_view answer);

// Structured calls (RequestStats::tool_calls, from a server's OpenAI `tool_calls`) written as
// the Kimi-K2 section parse_tool_calls reads, so a turn runs them like the embedded engine's
// calls: append it to the answer text. Each call is named "functions.NAME:INDEX" (the server's
// own id, e.g. "chatcmpl-tool-…", does not carry the name the parser needs). "" for none.
std::string render_tool_calls(const std::vector<ToolCallInfo>& calls);

struct SqlLimits {
    int max_rows = 200;           // rows returned (the rest is counted, not sent)
    double timeout_seconds = 2.0; // a query running longer is interrupted
    size_t max_cell_chars = 200;  // longer values are cut with "…"
};

struct SqlResult {
    std::vector<std::string> columns;
    std::vector<std::vector<std::string>> rows; // NULL as "NULL"
    bool truncated = false;                     // more rows than max_rows
    // The table as the model reads it (Markdown).
    std::string to_markdown() const;
};

// Read-only SQL over the user's data. Only one SELECT (or WITH ... SELECT) statement per query;
// everything else (writes, ATTACH, PRAGMA, schema changes, extensions) is refused by an
// authorizer on a read-only connection, whatever the SQL text tries.
class SqlTool {
public:
    ~SqlTool();
    SqlTool(SqlTool&&) noexcept;
    SqlTool& operator=(SqlTool&&) noexcept;

    // A SQLite database file, opened read-only.
    static Expected<SqlTool> open_sqlite(const std::string& path);
    // CSV files (header row, comma separated, RFC 4180 quoting) loaded into an in-memory
    // database, one table per file named after it (letters, digits and _ kept).
    static Expected<SqlTool> open_csv(const std::vector<std::string>& paths);

    Expected<SqlResult> query(const std::string& sql, const SqlLimits& limits = {}) const;
    // CREATE TABLE statements of every table (what the model is told about the data).
    std::string schema() const;
    // The tool's declaration for Request::tools_json (function "sql_query", argument "query").
    std::string tools_json() const;

private:
    SqlTool() = default;
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// One round of a turn: the call the model made and what the tool returned.
struct ToolRound {
    ToolCallInfo call;
    std::string result; // the table, or the error text the model is shown
    bool ok = false;
};
struct AgentTurn {
    std::string answer;            // the model's final words
    std::vector<ToolRound> rounds; // the tool calls it made on the way
    std::vector<Message> messages; // the conversation including the calls and results
};

// Produces the model's answer to a conversation (the Engine, or a scripted test double).
using GenerateAnswer =
    std::function<Expected<std::string>(const std::vector<Message>&, const std::string& tools)>;

// Runs a turn: generate; while the answer calls tools (at most max_rounds times), run them with
// `sql` and generate again with the results as tool messages.
Expected<AgentTurn> run_agent_turn(const GenerateAnswer& generate, std::vector<Message> messages,
                                   const SqlTool& sql, int max_rounds = 4,
                                   const SqlLimits& limits = {});

} // namespace folio
