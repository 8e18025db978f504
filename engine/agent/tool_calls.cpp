#include "agent/json_value.h"
#include "folio/agent.h"

namespace folio {

namespace {

constexpr std::string_view kSectionBegin = "<|tool_calls_section_begin|>";
constexpr std::string_view kSectionEnd = "<|tool_calls_section_end|>";
constexpr std::string_view kCallBegin = "<|tool_call_begin|>";
constexpr std::string_view kArgBegin = "<|tool_call_argument_begin|>";
constexpr std::string_view kCallEnd = "<|tool_call_end|>";

std::string trim(std::string_view s) {
    const size_t a = s.find_first_not_of(" \t\r\n");
    if (a == std::string_view::npos)
        return "";
    const size_t b = s.find_last_not_of(" \t\r\n");
    return std::string(s.substr(a, b - a + 1));
}

// "functions.sql_query:0" -> "sql_query"; "sql_query:3" -> "sql_query"; "sql_query" as is.
std::string name_of(const std::string& id) {
    std::string n = id;
    if (n.rfind("functions.", 0) == 0)
        n = n.substr(10);
    const size_t colon = n.rfind(':');
    if (colon != std::string::npos)
        n = n.substr(0, colon);
    return n;
}

} // namespace

std::string render_tool_calls(const std::vector<ToolCallInfo>& calls) {
    if (calls.empty())
        return {};
    std::string out(kSectionBegin);
    for (size_t i = 0; i < calls.size(); ++i) {
        out += kCallBegin;
        out += "functions." + calls[i].name + ":" + std::to_string(i);
        out += kArgBegin;
        out += calls[i].arguments;
        out += kCallEnd;
    }
    out += kSectionEnd;
    return out;
}

ParsedAnswer parse_tool_calls(std::string_view text) {
    ParsedAnswer out;
    const size_t section = text.find(kSectionBegin);
    // Some models skip the section marker and start with a call.
    const size_t first_call = text.find(kCallBegin);
    const size_t start = section != std::string_view::npos ? section : first_call;
    if (start == std::string_view::npos) {
        out.content = trim(text);
        return out;
    }
    size_t end = text.find(kSectionEnd, start);
    std::string_view body =
        text.substr(start, end == std::string_view::npos ? text.npos : end - start);
    std::string content(text.substr(0, start));
    if (end != std::string_view::npos)
        content += text.substr(end + kSectionEnd.size());
    out.content = trim(content);

    size_t pos = 0;
    while ((pos = body.find(kCallBegin, pos)) != std::string_view::npos) {
        pos += kCallBegin.size();
        ParsedCall pc;
        const size_t arg = body.find(kArgBegin, pos);
        const size_t next = body.find(kCallBegin, pos);
        if (arg == std::string_view::npos || (next != std::string_view::npos && next < arg)) {
            pc.call.id =
                trim(body.substr(pos, next == std::string_view::npos ? body.npos : next - pos));
            pc.call.name = name_of(pc.call.id);
            pc.error = "the call has no arguments";
            out.calls.push_back(std::move(pc));
            continue;
        }
        pc.call.id = trim(body.substr(pos, arg - pos));
        pc.call.name = name_of(pc.call.id);
        const size_t args_at = arg + kArgBegin.size();
        size_t call_end = body.find(kCallEnd, args_at);
        if (call_end == std::string_view::npos ||
            (next != std::string_view::npos && next < call_end)) {
            pc.call.arguments = trim(
                body.substr(args_at, next == std::string_view::npos ? body.npos : next - args_at));
            pc.error = "the call is not closed (<|tool_call_end|> missing)";
            out.calls.push_back(std::move(pc));
            pos = next == std::string_view::npos ? body.size() : next;
            continue;
        }
        pc.call.arguments = trim(body.substr(args_at, call_end - args_at));
        auto json = agent::parse_json(pc.call.arguments);
        if (!json)
            pc.error = "arguments are not valid JSON (" + json.error().message + ")";
        else if (json->kind != agent::JsonValue::Kind::Object)
            pc.error = "arguments must be a JSON object";
        if (pc.call.name.empty())
            pc.error = "the call names no function";
        out.calls.push_back(std::move(pc));
        pos = call_end + kCallEnd.size();
    }
    return out;
}

} // namespace folio
