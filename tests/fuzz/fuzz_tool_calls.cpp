// Model output is untrusted text: the JSON reader and the tool-call parser take anything.
#include "agent/json_value.h"
#include "folio/agent.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto v = folio::agent::parse_json(text);
    if (v && v->kind == folio::agent::JsonValue::Kind::String)
        (void)folio::agent::json_quote(v->string);
    const folio::ParsedAnswer a = folio::parse_tool_calls(text);
    for (const auto& c : a.calls)
        if (c.error.empty() && !folio::agent::parse_json(c.call.arguments))
            __builtin_trap(); // a call without error has valid JSON arguments
    return 0;
}
