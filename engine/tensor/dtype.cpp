#include "tensor/dtype.h"

#include <array>
#include <cctype>

namespace folio {

namespace {

// Block geometry of every GGUF type id (ggml_type in ggml/include/ggml.h; the block sizes are
// the static_asserts of ggml's ggml/src/ggml-common.h). Whether Folio computes with a type is
// the weight-type registry's business, not this table's.
struct Geometry {
    DType type;
    std::string_view name;
    uint32_t block_size;
    uint32_t block_bytes;
};

constexpr std::array<Geometry, 34> kGeometry = {{
    {DType::F32, "f32", 1, 4},
    {DType::F16, "f16", 1, 2},
    {DType::Q4_0, "q4_0", 32, 18},
    {DType::Q4_1, "q4_1", 32, 20},
    {DType::Q5_0, "q5_0", 32, 22},
    {DType::Q5_1, "q5_1", 32, 24},
    {DType::Q8_0, "q8_0", 32, 34},
    {DType::Q8_1, "q8_1", 32, 36},
    {DType::Q2_K, "q2_K", 256, 84},
    {DType::Q3_K, "q3_K", 256, 110},
    {DType::Q4_K, "q4_K", 256, 144},
    {DType::Q5_K, "q5_K", 256, 176},
    {DType::Q6_K, "q6_K", 256, 210},
    {DType::Q8_K, "q8_K", 256, 292},
    {DType::IQ2_XXS, "iq2_xxs", 256, 66},
    {DType::IQ2_XS, "iq2_xs", 256, 74},
    {DType::IQ3_XXS, "iq3_xxs", 256, 98},
    {DType::IQ1_S, "iq1_s", 256, 50},
    {DType::IQ4_NL, "iq4_nl", 32, 18},
    {DType::IQ3_S, "iq3_s", 256, 110},
    {DType::IQ2_S, "iq2_s", 256, 82},
    {DType::IQ4_XS, "iq4_xs", 256, 136},
    {DType::I8, "i8", 1, 1},
    {DType::I16, "i16", 1, 2},
    {DType::I32, "i32", 1, 4},
    {DType::I64, "i64", 1, 8},
    {DType::F64, "f64", 1, 8},
    {DType::IQ1_M, "iq1_m", 256, 56},
    {DType::BF16, "bf16", 1, 2},
    {DType::TQ1_0, "tq1_0", 256, 54},
    {DType::TQ2_0, "tq2_0", 256, 66},
    {DType::MXFP4, "mxfp4", 32, 17},
    {DType::Q1_0, "q1_0", 128, 18},
    {DType::Q2_0, "q2_0", 64, 18},
}};

DTypeTraits traits_of(const Geometry& g) {
    return {g.type, g.name, g.block_size, g.block_bytes};
}

} // namespace

std::optional<DTypeTraits> dtype_traits(uint32_t ggml_type_id) {
    for (const auto& g : kGeometry)
        if (static_cast<uint32_t>(g.type) == ggml_type_id)
            return traits_of(g);
    return std::nullopt;
}

DTypeTraits dtype_traits(DType type) {
    for (const auto& g : kGeometry)
        if (g.type == type)
            return traits_of(g);
    return {type, "unknown", 1, 0};
}

DTypeBlock dtype_block(DType type) {
    for (const auto& g : kGeometry)
        if (g.type == type)
            return {g.block_size, g.block_bytes};
    return {1, 0};
}

std::string_view dtype_name(DType type) {
    return dtype_traits(type).name;
}

std::optional<DType> dtype_from_name(std::string_view name) {
    for (const auto& g : kGeometry) {
        if (g.name.size() != name.size())
            continue;
        bool same = true;
        for (size_t i = 0; i < name.size() && same; ++i)
            same = std::tolower(static_cast<unsigned char>(name[i])) ==
                   std::tolower(static_cast<unsigned char>(g.name[i]));
        if (same)
            return g.type;
    }
    return std::nullopt;
}

} // namespace folio
