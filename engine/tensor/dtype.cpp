#include "tensor/dtype.h"

#include <array>
#include <cctype>

namespace folio {

namespace {

constexpr std::array<DTypeTraits, 21> kTraits = {{
    {DType::F32, "f32", 1, 4, true},       {DType::F16, "f16", 1, 2, true},
    {DType::Q4_0, "q4_0", 32, 18, true},   {DType::Q4_1, "q4_1", 32, 20, false},
    {DType::Q5_0, "q5_0", 32, 22, false},  {DType::Q5_1, "q5_1", 32, 24, false},
    {DType::Q8_0, "q8_0", 32, 34, true},   {DType::Q8_1, "q8_1", 32, 36, false},
    {DType::Q2_K, "q2_K", 256, 84, false}, {DType::Q3_K, "q3_K", 256, 110, false},
    {DType::Q4_K, "q4_K", 256, 144, true}, {DType::Q5_K, "q5_K", 256, 176, false},
    {DType::Q6_K, "q6_K", 256, 210, true}, {DType::Q8_K, "q8_K", 256, 292, false},
    {DType::I8, "i8", 1, 1, false},        {DType::I16, "i16", 1, 2, false},
    {DType::I32, "i32", 1, 4, false},      {DType::I64, "i64", 1, 8, false},
    {DType::F64, "f64", 1, 8, false},      {DType::BF16, "bf16", 1, 2, true},
    {DType::MXFP4, "mxfp4", 32, 17, true},
}};

} // namespace

std::optional<DTypeTraits> dtype_traits(uint32_t ggml_type_id) {
    for (const auto& t : kTraits)
        if (static_cast<uint32_t>(t.type) == ggml_type_id)
            return t;
    return std::nullopt;
}

DTypeTraits dtype_traits(DType type) {
    for (const auto& t : kTraits)
        if (t.type == type)
            return t;
    return {type, "unknown", 1, 0, false};
}

std::string_view dtype_name(DType type) {
    return dtype_traits(type).name;
}

std::optional<DType> dtype_from_name(std::string_view name) {
    for (const auto& t : kTraits) {
        if (t.name.size() != name.size())
            continue;
        bool same = true;
        for (size_t i = 0; i < name.size() && same; ++i)
            same = std::tolower(static_cast<unsigned char>(name[i])) ==
                   std::tolower(static_cast<unsigned char>(t.name[i]));
        if (same)
            return t.type;
    }
    return std::nullopt;
}

} // namespace folio
