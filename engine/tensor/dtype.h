#pragma once
// Tensor element types as numbered by ggml / GGUF (spec/GGUF_LAYOUT.md §2.1). Only the types
// Folio computes with are "supported"; the reader still knows the block geometry of the others
// so it can validate and skip them with a clear message.

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
    I8 = 24,
    I16 = 25,
    I32 = 26,
    I64 = 27,
    F64 = 28,
    BF16 = 30,
    MXFP4 = 39,
};

struct DTypeTraits {
    DType type;
    std::string_view name; // as llama.cpp prints it: "f32", "q8_0", "mxfp4", ...
    uint32_t block_size;   // elements per block along ne[0]
    uint32_t block_bytes;  // bytes per block
    bool supported;        // Folio has dequantize + matmul kernels for it
};

// Traits of a GGUF type id, or nullopt for ids that are unknown or retired.
std::optional<DTypeTraits> dtype_traits(uint32_t ggml_type_id);
DTypeTraits dtype_traits(DType type);
std::string_view dtype_name(DType type);
// Parses "f32", "q8_0", "mxfp4", ... (case-insensitive).
std::optional<DType> dtype_from_name(std::string_view name);

// Bytes of one row of n elements; n must be a multiple of the block size.
inline size_t dtype_row_bytes(DType type, uint64_t n) {
    DTypeTraits t = dtype_traits(type);
    return static_cast<size_t>(n / t.block_size) * t.block_bytes;
}

} // namespace folio
