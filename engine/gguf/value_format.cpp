#include "gguf/value_format.h"

#include <bit>
#include <charconv>
#include <cstdio>

namespace folio::gguf {

namespace {

constexpr size_t kSummaryItems = 5;      // items shown of a long array
constexpr size_t kArrayStringChars = 24; // chars shown of each string inside an array

std::string quote(std::string_view s, size_t max_chars) {
    size_t cut = s.size();
    if (cut > max_chars) {
        cut = max_chars;
        while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80)
            --cut; // do not split a UTF-8 sequence
    }
    std::string out = "\"";
    for (size_t i = 0; i < cut; ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
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
        case '\t':
            out += "\\t";
            break;
        case '\r':
            out += "\\r";
            break;
        default:
            if (c < 0x20 || c == 0x7f) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\x%02x", c);
                out += buf;
            } else {
                out += static_cast<char>(c);
            }
        }
    }
    out += '"';
    if (cut < s.size())
        out += "... (" + std::to_string(s.size()) + " bytes)";
    return out;
}

template <typename F> std::string shortest(F v) {
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

std::string format_int(ValueType t, int64_t i) {
    if (t == ValueType::U64)
        return std::to_string(std::bit_cast<uint64_t>(i));
    if (t == ValueType::Bool)
        return i != 0 ? "true" : "false";
    return std::to_string(i);
}

std::string format_float(ValueType t, double f) {
    return t == ValueType::F32 ? shortest(static_cast<float>(f)) : shortest(f);
}

std::string format_item(const ArrayValue& a, size_t k) {
    switch (a.element_type) {
    case ValueType::String:
        return quote(a.strings[k], kArrayStringChars);
    case ValueType::F32:
    case ValueType::F64:
        return format_float(a.element_type, a.floats[k]);
    default:
        return format_int(a.element_type, a.ints[k]);
    }
}

std::string format_array(const ArrayValue& a, size_t max_items) {
    const size_t n = a.size();
    std::string out = "[";
    if (n <= max_items) {
        for (size_t k = 0; k < n; ++k) {
            if (k > 0)
                out += ", ";
            out += format_item(a, k);
        }
        out += ']';
        return out;
    }
    out += std::to_string(n);
    out += ' ';
    out += a.element_type == ValueType::String ? std::string_view("strings")
                                               : value_type_name(a.element_type);
    out += ':';
    for (size_t k = 0; k < kSummaryItems && k < n; ++k) {
        out += ' ';
        out += format_item(a, k);
        out += ',';
    }
    out += " ... ]";
    return out;
}

} // namespace

std::string value_type_label(const Value& v) {
    if (v.type == ValueType::Array && v.array)
        return "array[" + std::string(value_type_name(v.array->element_type)) + "]";
    return std::string(value_type_name(v.type));
}

std::string format_value(const Value& v, size_t max_items, size_t max_chars) {
    switch (v.type) {
    case ValueType::String:
        return quote(v.s, max_chars);
    case ValueType::F32:
    case ValueType::F64:
        return format_float(v.type, v.f);
    case ValueType::Array:
        return v.array ? format_array(*v.array, max_items) : "[]";
    default:
        return format_int(v.type, v.i);
    }
}

} // namespace folio::gguf
