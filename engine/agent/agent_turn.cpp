#include "agent/json_value.h"
#include "folio/agent.h"

namespace folio {

Expected<AgentTurn> run_agent_turn(const GenerateAnswer& generate, std::vector<Message> messages,
                                   const SqlTool& sql, int max_rounds, const SqlLimits& limits) {
    AgentTurn turn;
    const std::string tools = sql.tools_json();
    for (int round = 0;; ++round) {
        FOLIO_TRY(text, generate(messages, tools));
        ParsedAnswer parsed = parse_tool_calls(text);
        Message assistant{"assistant", parsed.content, {}, {}};
        if (parsed.calls.empty() || round >= max_rounds) {
            turn.answer = parsed.content;
            messages.push_back(std::move(assistant));
            break;
        }
        for (const ParsedCall& pc : parsed.calls)
            assistant.tool_calls.push_back(pc.call);
        messages.push_back(assistant);
        for (const ParsedCall& pc : parsed.calls) {
            ToolRound r;
            r.call = pc.call;
            if (!pc.error.empty()) {
                r.result = "error: " + pc.error;
            } else if (pc.call.name != "sql_query") {
                r.result = "error: unknown tool '" + pc.call.name + "' (available: sql_query)";
            } else {
                auto args = agent::parse_json(pc.call.arguments);
                const agent::JsonValue* q = args ? args->find("query") : nullptr;
                if (!q || q->kind != agent::JsonValue::Kind::String) {
                    r.result = "error: sql_query needs {\"query\": \"SELECT ...\"}";
                } else if (auto res = sql.query(q->string, limits)) {
                    r.result = res->to_markdown();
                    r.ok = true;
                } else {
                    r.result = "error: " + res.error().message;
                }
            }
            // Kimi's template renders tool results as system "tool" turns; newer templates
            // name the call they answer.
            messages.push_back(Message{
                "tool",
                "## Return of " + (r.call.id.empty() ? r.call.name : r.call.id) + "\n" + r.result,
                {},
                {}});
            turn.rounds.push_back(std::move(r));
        }
    }
    turn.messages = std::move(messages);
    return turn;
}

} // namespace folio
