#include "remote/stream_event.h"

#include <nlohmann/json.hpp>

namespace folio::remote {

namespace {

using nlohmann::json;

std::optional<int64_t> int_field(const json& o, const char* key) {
    if (o.is_object() && o.contains(key) && o[key].is_number_integer())
        return o[key].get<int64_t>();
    return std::nullopt;
}

std::string message_in(const json& j) {
    if (j.is_object() && j.contains("error")) {
        const json& e = j["error"];
        if (e.is_string())
            return e.get<std::string>();
        if (e.is_object() && e.contains("message") && e["message"].is_string())
            return e["message"].get<std::string>();
        return e.dump();
    }
    if (j.is_object() && j.contains("detail"))
        return j["detail"].is_string() ? j["detail"].get<std::string>() : j["detail"].dump();
    if (j.is_object() && j.contains("message") && j["message"].is_string())
        return j["message"].get<std::string>();
    return {};
}

// OpenAI tool calls of a delta or message: [{index, id, type, function: {name, arguments}}],
// every field optional in a delta (later pieces carry only the index and more arguments).
void read_tool_calls(const json& holder, StreamEvent& ev) {
    if (!holder.contains("tool_calls") || !holder["tool_calls"].is_array())
        return;
    int position = 0;
    for (const json& t : holder["tool_calls"]) {
        if (!t.is_object())
            continue;
        ToolCallDelta d;
        d.index = t.contains("index") && t["index"].is_number_integer() ? t["index"].get<int>()
                                                                        : position;
        ++position;
        if (t.contains("id") && t["id"].is_string())
            d.id = t["id"].get<std::string>();
        if (t.contains("function") && t["function"].is_object()) {
            const json& f = t["function"];
            if (f.contains("name") && f["name"].is_string())
                d.name = f["name"].get<std::string>();
            if (f.contains("arguments") && f["arguments"].is_string())
                d.arguments = f["arguments"].get<std::string>();
        }
        ev.tool_calls.push_back(std::move(d));
    }
}

} // namespace

bool parse_stream_event(std::string_view data, StreamEvent& ev) {
    if (data == "[DONE]") {
        ev.done_marker = true;
        return true;
    }
    json j = json::parse(data.begin(), data.end(), nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
        ev.error = "the server sent an event that is not a JSON object";
        return false;
    }
    try {
        if (j.contains("error")) {
            ev.error = message_in(j);
            if (ev.error.empty())
                ev.error = "the server reported an error";
            return true;
        }
        if (j.contains("usage") && j["usage"].is_object()) {
            const json& u = j["usage"];
            ev.prompt_tokens = int_field(u, "prompt_tokens");
            ev.completion_tokens = int_field(u, "completion_tokens");
            if (u.contains("prompt_tokens_details"))
                ev.cached_tokens = int_field(u["prompt_tokens_details"], "cached_tokens");
        }
        if (j.contains("choices") && j["choices"].is_array() && !j["choices"].empty()) {
            const json& c = j["choices"][0];
            if (c.contains("delta") && c["delta"].is_object()) {
                const json& d = c["delta"];
                if (d.contains("content") && d["content"].is_string())
                    ev.text = d["content"].get<std::string>();
                read_tool_calls(d, ev);
            } else if (c.contains("message") && c["message"].is_object()) {
                const json& m = c["message"];
                if (m.contains("content") && m["content"].is_string())
                    ev.text = m["content"].get<std::string>();
                read_tool_calls(m, ev);
            } else if (c.contains("text") && c["text"].is_string()) {
                ev.text = c["text"].get<std::string>();
            }
            if (c.contains("token_ids") && c["token_ids"].is_array())
                for (const json& t : c["token_ids"])
                    if (t.is_number_integer())
                        ev.token_ids.push_back(t.get<int32_t>());
            if (c.contains("finish_reason") && c["finish_reason"].is_string())
                ev.finish_reason = c["finish_reason"].get<std::string>();
        }
    } catch (const std::exception& e) {
        ev.error = std::string("malformed event: ") + e.what();
        return false;
    }
    return true;
}

std::string error_message_of(std::string_view body) {
    json j = json::parse(body.begin(), body.end(), nullptr, false);
    if (!j.is_discarded()) {
        std::string m = message_in(j);
        if (!m.empty())
            return m;
    }
    std::string s(body.substr(0, 300));
    return s.empty() ? "(empty body)" : s;
}

} // namespace folio::remote
