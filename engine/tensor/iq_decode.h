#pragma once
// Decoding of the grid i-quants and ternary types (tensor/iq_blocks.h) to small integers, shared by
// the dequantizers and the reference dot products, so both read the bits one way.
//
// Every such super-block of 256 values decodes to
//   value[i] = d · mult · scale[i / 8] · q[i]
// with q small signed integers (codebook value with its sign; IQ1: 8·(grid value) ± 1, so the
// ±1/8 shift stays an integer), scale[g] the integer scale of the group of 8 values g, d the
// block's fp16 scale as fp32 and mult a constant of the type (1/8 for IQ2, 1/4 for IQ3_XXS, 1/8
// for IQ1, 1 otherwise). This is ggml's dequantize_row_iq* arithmetic: there the block scale of a
// group is d·(2s + 1)·mult (rounded once, as here, since mult is a power of two) and it multiplies
// each value.

#include <cstdint>
#include <optional>

namespace folio {

struct IqBlockInts {
    int8_t q[256];     // |q| <= 62
    uint8_t scale[32]; // per group of 8 values, <= 31
    float d;           // fp32 of the block's fp16 scale
};

using IqDecodeFn = void (*)(const void* block, IqBlockInts* out);

struct IqFormat {
    uint32_t ggml_type;   // GGUF type id
    uint32_t block_bytes; // bytes per 256 values
    float mult;           // constant factor of the type (see above)
    IqDecodeFn decode;
};

void decode_iq2_xxs(const void* block, IqBlockInts* out);
void decode_iq2_xs(const void* block, IqBlockInts* out);
void decode_iq2_s(const void* block, IqBlockInts* out);
void decode_iq3_xxs(const void* block, IqBlockInts* out);
void decode_iq3_s(const void* block, IqBlockInts* out);
void decode_iq1_s(const void* block, IqBlockInts* out);
void decode_iq1_m(const void* block, IqBlockInts* out);
void decode_tq1_0(const void* block, IqBlockInts* out);
void decode_tq2_0(const void* block, IqBlockInts* out);

// The format of a GGUF type id among the types above, or nullopt.
std::optional<IqFormat> iq_format(uint32_t ggml_type);

// n a multiple of 256; src holds n/256 blocks of the format.
void dequantize_row_iq(const IqFormat& format, const void* src, float* dst, int64_t n);

// The registry's dequantizers (kernels/weight_types.cpp DequantizeRowFn), one per type.
void dequantize_row_iq2_xxs(const void* src, float* dst, int64_t n);
void dequantize_row_iq2_xs(const void* src, float* dst, int64_t n);
void dequantize_row_iq2_s(const void* src, float* dst, int64_t n);
void dequantize_row_iq3_xxs(const void* src, float* dst, int64_t n);
void dequantize_row_iq3_s(const void* src, float* dst, int64_t n);
void dequantize_row_iq1_s(const void* src, float* dst, int64_t n);
void dequantize_row_iq1_m(const void* src, float* dst, int64_t n);
void dequantize_row_tq1_0(const void* src, float* dst, int64_t n);
void dequantize_row_tq2_0(const void* src, float* dst, int64_t n);

} // namespace folio
