#pragma once
// The registry of weight types: one row per DType Folio computes with (weight_types.cpp), saying
// which activation format its dot products take, its reference dequantizer and weight quantizer,
// and its dot-product kernels per implementation. matmul, get_rows and weight_rows.h
// (dequantize_row / quantize_row, dtype_is_computable) all look types up here, so adding a weight
// type means writing its own files (block struct, dequantizer, dots) plus one row in the table.
//
// Activation formats (ggml-cpu's type_traits_cpu vec_dot_type, ggml-cpu.c) have a small registry
// of their own: how long a converted row is, the quantizer per implementation, and the derived
// areas some kernels read after the blocks (Q8_0, see kernel_table.h Q8_0ActLayout).

#include "kernels/kernel_context.h"
#include "kernels/kernel_table.h"
#include "tensor/dtype.h"

#include <cstddef>
#include <cstdint>

namespace folio {

// Stored blocks of n elements (a multiple of the block size) -> n floats.
using DequantizeRowFn = void (*)(const void* src, float* dst, int64_t n);

struct WeightType {
    DType type;
    DType activations;          // F32, Q8_0, Q8_1 or Q8_K: what activation rows become
    DequantizeRowFn dequantize; // reference dequantizer (tensor/)
    QuantizeRowFn quantize;     // reference weight quantizer (llama.cpp's *_ref rules), or null
    VecDotFn dot_ref;           // scalar reference dot (kernels/reference/)
    VecDotFn dot_avx2;          // AVX2 dot, or null: the reference dot on AVX2 CPUs too
    // AVX-512 VNNI dot returning the AVX2 dot's bits (MXFP4's, Q4_0's, IQ4_NL's: their own float
    // order, within rounding of the reference), or null. Only KernelPath::Auto takes it,
    // so KernelPath::Avx2 still pins the AVX2 kernel for the tests.
    VecDotFn dot_avx512 = nullptr;
    // AVX-512 VNNI dot of several weight rows against one activation row (dot_avx512's bits per
    // row), or null. Only KernelPath::Auto takes it, for matvecs.
    VecDotRowsFn dot_rows_avx512 = nullptr;
};

// The row of `type`, or null when Folio cannot compute with it.
const WeightType* find_weight_type(DType type);
// The dot kernel for path on this CPU (reference when no faster one exists or path says so).
VecDotFn weight_dot(const WeightType& w, KernelPath path);
// The several-rows dot for path on this CPU, or null (then weight_dot row by row).
VecDotRowsFn weight_dot_rows(const WeightType& w, KernelPath path);

struct ActivationFormat {
    DType format;                          // Q8_0, Q8_1 or Q8_K (F32 has no row: no conversion)
    size_t (*row_bytes)(int64_t k);        // bytes of one converted row of k values
    QuantizeRowFn quantize_ref;            // f32 row -> blocks (bit-exact with ggml-cpu)
    QuantizeRowFn quantize_avx2;           // same bytes, faster, or null
    void (*finish_row)(uint8_t*, int64_t); // fills derived areas after the blocks, or null
};

// The format's row, or null for F32 and unknown formats.
const ActivationFormat* find_activation_format(DType format);
QuantizeRowFn activation_quantizer(const ActivationFormat& f, KernelPath path);

} // namespace folio
