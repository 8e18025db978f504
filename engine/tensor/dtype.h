#pragma once
// Tensor element types as numbered by ggml / GGUF (ggml_type in ggml/include/ggml.h) and their
// block geometry, for every type (the reader validates and skips the ones Folio does not compute
// with, with a clear message). Whether Folio computes with a type is the weight-type registry's
// say (kernels/weight_rows.h dtype_is_computable), not this folder's.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace folio {

enum class DType : uint32_t {
    F32 = 0,
    F16 = 1,
    Q4_0 = 2,
    Q4_1 = 3,
    Q5_0 = 6,
    Q5_1 = 7,
    Q8_0 = 8,
    Q8_1 = 9,
    Q2_K = 10,
    Q3_K = 11,
    Q4_K = 12,
    Q5_K = 13,
    Q6_K = 14,
    Q8_K = 15,
    IQ2_XXS = 16,
    IQ2_XS = 17,
    IQ3_XXS = 18,
    IQ1_S = 19,
    IQ4_NL = 20,
    IQ3_S = 21,
    IQ2_S = 22,
    IQ4_XS = 23,
    I8 = 24,
    I16 = 25,
    I32 = 26,
    I64 = 27,
    F64 = 28,
    IQ1_M = 29,
    BF16 = 30,
    TQ1_0 = 34,
    TQ2_0 = 35,
    MXFP4 = 39,
    Q1_0 = 41,
    Q2_0 = 42,
};

struct DTypeTraits {
    DType type;
    std::string_view name; // as llama.cpp prints it: "f32", "q8_0", "mxfp4", ...
    uint32_t block_size;   // elements per block along ne[0]
    uint32_t block_bytes;  // bytes per block
};

// Traits of a GGUF type id, or nullopt for ids that are unknown or retired.
std::optional<DTypeTraits> dtype_traits(uint32_t ggml_type_id);
DTypeTraits dtype_traits(DType type);
std::string_view dtype_name(DType type);
// Parses "f32", "q8_0", "mxfp4", ... (case-insensitive).
std::optional<DType> dtype_from_name(std::string_view name);

// Block geometry: {elements, bytes} per block, {1, 0} if unknown.
struct DTypeBlock {
    uint32_t size;
    uint32_t bytes;
};
DTypeBlock dtype_block(DType type);

// Bytes of one row of n elements; n must be a multiple of the block size.
inline size_t dtype_row_bytes(DType type, uint64_t n) {
    const DTypeBlock b = dtype_block(type);
    return static_cast<size_t>(n / b.size) * b.bytes;
}

} // namespace folio
