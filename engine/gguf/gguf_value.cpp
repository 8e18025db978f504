// The GGUF value types (gguf_type in ggml's docs/gguf.md): names and scalar sizes.
#include "gguf/gguf_file.h"

namespace folio::gguf {

std::string_view value_type_name(ValueType t) {
    switch (t) {
    case ValueType::U8:
        return "uint8";
    case ValueType::I8:
        return "int8";
    case ValueType::U16:
        return "uint16";
    case ValueType::I16:
        return "int16";
    case ValueType::U32:
        return "uint32";
    case ValueType::I32:
        return "int32";
    case ValueType::F32:
        return "float32";
    case ValueType::Bool:
        return "bool";
    case ValueType::String:
        return "string";
    case ValueType::Array:
        return "array";
    case ValueType::U64:
        return "uint64";
    case ValueType::I64:
        return "int64";
    case ValueType::F64:
        return "float64";
    }
    return "unknown";
}

bool is_valid_value_type(int32_t t) {
    return t >= 0 && t <= 12;
}

size_t value_type_size(ValueType t) {
    switch (t) {
    case ValueType::U8:
    case ValueType::I8:
    case ValueType::Bool:
        return 1;
    case ValueType::U16:
    case ValueType::I16:
        return 2;
    case ValueType::U32:
    case ValueType::I32:
    case ValueType::F32:
        return 4;
    case ValueType::U64:
    case ValueType::I64:
    case ValueType::F64:
        return 8;
    case ValueType::String:
    case ValueType::Array:
        return 0;
    }
    return 0;
}

size_t ArrayValue::size() const {
    switch (element_type) {
    case ValueType::F32:
    case ValueType::F64:
        return floats.size();
    case ValueType::String:
        return strings.size();
    default:
        return ints.size();
    }
}

} // namespace folio::gguf
