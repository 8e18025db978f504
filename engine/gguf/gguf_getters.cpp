// Typed metadata getters with the type strictness of llama.cpp's loader
// (src/llama-model-loader.cpp): a key must have exactly the type asked for.
#include "gguf/gguf_file.h"

namespace folio::gguf {

namespace {

bool is_integer(ValueType t) {
    switch (t) {
    case ValueType::U8:
    case ValueType::I8:
    case ValueType::U16:
    case ValueType::I16:
    case ValueType::U32:
    case ValueType::I32:
    case ValueType::U64:
    case ValueType::I64:
        return true;
    default:
        return false;
    }
}

std::string type_label(const Value& v) {
    if (v.type == ValueType::Array && v.array)
        return "array of " + std::string(value_type_name(v.array->element_type));
    return std::string(value_type_name(v.type));
}

Error wrong_type(const File& f, const KeyValue& kv, std::string_view expected) {
    return make_error(ErrorCode::Format, f.path() + ": key '" + kv.key + "' at byte " +
                                             std::to_string(kv.file_offset) + " has type " +
                                             type_label(kv.value) + ", expected " +
                                             std::string(expected));
}

// The array of `key` when its element type passes `accept`; nullptr when the key is absent.
Expected<const ArrayValue*> find_array(const File& f, std::string_view key,
                                       bool (*accept)(ValueType), std::string_view expected) {
    const KeyValue* kv = f.find_key(key);
    if (kv == nullptr)
        return static_cast<const ArrayValue*>(nullptr);
    if (kv->value.type != ValueType::Array || !kv->value.array ||
        !accept(kv->value.array->element_type))
        return wrong_type(f, *kv, expected);
    return kv->value.array.get();
}

} // namespace

Expected<std::optional<uint32_t>> File::get_u32(std::string_view key) const {
    const KeyValue* kv = find_key(key);
    if (kv == nullptr)
        return std::optional<uint32_t>();
    if (kv->value.type != ValueType::U32)
        return wrong_type(*this, *kv, "uint32");
    return std::optional<uint32_t>(static_cast<uint32_t>(kv->value.i));
}

Expected<std::optional<float>> File::get_f32(std::string_view key) const {
    const KeyValue* kv = find_key(key);
    if (kv == nullptr)
        return std::optional<float>();
    if (kv->value.type != ValueType::F32)
        return wrong_type(*this, *kv, "float32");
    return std::optional<float>(static_cast<float>(kv->value.f));
}

Expected<std::optional<bool>> File::get_bool(std::string_view key) const {
    const KeyValue* kv = find_key(key);
    if (kv == nullptr)
        return std::optional<bool>();
    if (kv->value.type != ValueType::Bool)
        return wrong_type(*this, *kv, "bool");
    return std::optional<bool>(kv->value.i != 0);
}

Expected<std::optional<std::string>> File::get_string(std::string_view key) const {
    const KeyValue* kv = find_key(key);
    if (kv == nullptr)
        return std::optional<std::string>();
    if (kv->value.type != ValueType::String)
        return wrong_type(*this, *kv, "string");
    return std::optional<std::string>(kv->value.s);
}

Expected<std::optional<std::vector<int64_t>>> File::get_int_array(std::string_view key) const {
    FOLIO_TRY(arr, find_array(*this, key, is_integer, "array of integers"));
    if (arr == nullptr)
        return std::optional<std::vector<int64_t>>();
    return std::optional<std::vector<int64_t>>(arr->ints);
}

Expected<std::optional<std::vector<float>>> File::get_f32_array(std::string_view key) const {
    FOLIO_TRY(arr,
              find_array(
                  *this, key, [](ValueType t) { return t == ValueType::F32; }, "array of float32"));
    if (arr == nullptr)
        return std::optional<std::vector<float>>();
    std::vector<float> out(arr->floats.begin(), arr->floats.end());
    return std::optional<std::vector<float>>(std::move(out));
}

Expected<std::optional<std::vector<std::string>>>
File::get_string_array(std::string_view key) const {
    FOLIO_TRY(arr, find_array(
                       *this, key, [](ValueType t) { return t == ValueType::String; },
                       "array of string"));
    if (arr == nullptr)
        return std::optional<std::vector<std::string>>();
    return std::optional<std::vector<std::string>>(arr->strings);
}

Expected<std::string> File::architecture() const {
    FOLIO_TRY(arch, get_string("general.architecture"));
    if (!arch)
        return make_error(ErrorCode::NotFound,
                          path_ + ": missing required key 'general.architecture'");
    if (arch->empty())
        return make_error(ErrorCode::Format,
                          path_ + ": key 'general.architecture' at byte " +
                              std::to_string(find_key("general.architecture")->file_offset) +
                              " is empty");
    return std::move(*arch);
}

} // namespace folio::gguf
