#pragma once
// A small strict JSON reader (RFC 8259) for tool-call arguments: the engine has no Qt and needs
// only to read objects of strings and numbers from model output, robustly (errors name the byte
// offset; nesting is bounded so hostile input cannot exhaust the stack).

#include "folio/error.h"

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace folio::agent {

struct JsonValue {
    enum class Kind { Null, Bool, Number, String, Array, Object } kind = Kind::Null;
    bool boolean = false;
    double number = 0;
    std::string string;
    std::vector<JsonValue> array;
    std::map<std::string, JsonValue> object;

    const JsonValue* find(const std::string& key) const {
        auto it = object.find(key);
        return kind == Kind::Object && it != object.end() ? &it->second : nullptr;
    }
};

Expected<JsonValue> parse_json(std::string_view text);
// A JSON string literal for s (quotes and escapes).
std::string json_quote(std::string_view s);

} // namespace folio::agent
