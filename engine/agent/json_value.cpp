#include "agent/json_value.h"

#include <cstdlib>

namespace folio::agent {

namespace {

constexpr int kMaxDepth = 64;

struct Reader {
    std::string_view s;
    size_t i = 0;

    Error error(const std::string& what) const {
        return Error{ErrorCode::Format, "JSON at byte " + std::to_string(i) + ": " + what};
    }
    void skip_ws() {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
            ++i;
    }
    bool literal(std::string_view word) {
        if (s.substr(i, word.size()) != word)
            return false;
        i += word.size();
        return true;
    }
    static void put_utf8(std::string& out, uint32_t cp) {
        if (cp < 0x80) {
            out += static_cast<char>(cp);
        } else if (cp < 0x800) {
            out += static_cast<char>(0xC0 | (cp >> 6));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            out += static_cast<char>(0xE0 | (cp >> 12));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else {
            out += static_cast<char>(0xF0 | (cp >> 18));
            out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        }
    }
    Expected<uint32_t> hex4() {
        if (i + 4 > s.size())
            return error("truncated \\u escape");
        uint32_t v = 0;
        for (int k = 0; k < 4; ++k) {
            const char c = s[i++];
            v <<= 4;
            if (c >= '0' && c <= '9')
                v |= static_cast<uint32_t>(c - '0');
            else if (c >= 'a' && c <= 'f')
                v |= static_cast<uint32_t>(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F')
                v |= static_cast<uint32_t>(c - 'A' + 10);
            else
                return error("bad \\u escape");
        }
        return v;
    }
    Expected<std::string> string() {
        ++i; // opening quote
        std::string out;
        while (i < s.size()) {
            const char c = s[i++];
            if (c == '"')
                return out;
            if (static_cast<unsigned char>(c) < 0x20)
                return error("control character in a string");
            if (c != '\\') {
                out += c;
                continue;
            }
            if (i >= s.size())
                break;
            const char e = s[i++];
            switch (e) {
            case '"':
                out += '"';
                break;
            case '\\':
                out += '\\';
                break;
            case '/':
                out += '/';
                break;
            case 'b':
                out += '\b';
                break;
            case 'f':
                out += '\f';
                break;
            case 'n':
                out += '\n';
                break;
            case 'r':
                out += '\r';
                break;
            case 't':
                out += '\t';
                break;
            case 'u': {
                FOLIO_TRY(cp, hex4());
                if (cp >= 0xD800 && cp < 0xDC00 && s.substr(i, 2) == "\\u") {
                    i += 2;
                    FOLIO_TRY(lo, hex4());
                    if (lo < 0xDC00 || lo >= 0xE000)
                        return error("bad surrogate pair");
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                } else if (cp >= 0xD800 && cp < 0xE000) {
                    return error("lone surrogate");
                }
                put_utf8(out, cp);
                break;
            }
            default:
                return error(std::string("bad escape \\") + e);
            }
        }
        return error("unterminated string");
    }
    Expected<JsonValue> value(int depth) {
        if (depth > kMaxDepth)
            return error("nested too deeply");
        skip_ws();
        if (i >= s.size())
            return error("unexpected end");
        JsonValue v;
        const char c = s[i];
        if (c == '{') {
            v.kind = JsonValue::Kind::Object;
            ++i;
            skip_ws();
            if (i < s.size() && s[i] == '}') {
                ++i;
                return v;
            }
            for (;;) {
                skip_ws();
                if (i >= s.size() || s[i] != '"')
                    return error("expected a key");
                FOLIO_TRY(key, string());
                skip_ws();
                if (i >= s.size() || s[i] != ':')
                    return error("expected ':'");
                ++i;
                FOLIO_TRY(item, value(depth + 1));
                v.object[key] = std::move(item);
                skip_ws();
                if (i < s.size() && s[i] == ',') {
                    ++i;
                    continue;
                }
                if (i < s.size() && s[i] == '}') {
                    ++i;
                    return v;
                }
                return error("expected ',' or '}'");
            }
        }
        if (c == '[') {
            v.kind = JsonValue::Kind::Array;
            ++i;
            skip_ws();
            if (i < s.size() && s[i] == ']') {
                ++i;
                return v;
            }
            for (;;) {
                FOLIO_TRY(item, value(depth + 1));
                v.array.push_back(std::move(item));
                skip_ws();
                if (i < s.size() && s[i] == ',') {
                    ++i;
                    continue;
                }
                if (i < s.size() && s[i] == ']') {
                    ++i;
                    return v;
                }
                return error("expected ',' or ']'");
            }
        }
        if (c == '"') {
            v.kind = JsonValue::Kind::String;
            FOLIO_TRY(str, string());
            v.string = std::move(str);
            return v;
        }
        if (literal("true")) {
            v.kind = JsonValue::Kind::Bool;
            v.boolean = true;
            return v;
        }
        if (literal("false")) {
            v.kind = JsonValue::Kind::Bool;
            return v;
        }
        if (literal("null"))
            return v;
        if (c == '-' || (c >= '0' && c <= '9')) {
            const size_t start = i;
            if (s[i] == '-')
                ++i;
            while (i < s.size() && ((s[i] >= '0' && s[i] <= '9') || s[i] == '.' || s[i] == 'e' ||
                                    s[i] == 'E' || s[i] == '+' || s[i] == '-'))
                ++i;
            const std::string num(s.substr(start, i - start));
            char* end = nullptr;
            v.kind = JsonValue::Kind::Number;
            v.number = std::strtod(num.c_str(), &end);
            if (end != num.c_str() + num.size())
                return error("bad number");
            return v;
        }
        return error(std::string("unexpected character '") + c + "'");
    }
};

} // namespace

Expected<JsonValue> parse_json(std::string_view text) {
    Reader r{text};
    FOLIO_TRY(v, r.value(0));
    r.skip_ws();
    if (r.i != text.size())
        return r.error("trailing characters");
    return v;
}

std::string json_quote(std::string_view s) {
    std::string out = "\"";
    for (const char c : s) {
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                static const char* hex = "0123456789abcdef";
                out += "\\u00";
                out += hex[(c >> 4) & 0xF];
                out += hex[c & 0xF];
            } else {
                out += c;
            }
        }
    }
    return out + "\"";
}

} // namespace folio::agent
