// The weight-type and activation-format registries (kernels/weight_types.h). Adding a weight
// type: its block struct (tensor/quant_blocks.h), reference dequantizer / quantizer
// (tensor/quant_*.cpp, declared in tensor/quant_rows.h), reference dot (kernels/reference/) and
// fast dot (kernels/*_avx2.cpp), then one row in kWeightTypes.
#include "kernels/weight_types.h"

#include "kernels/reference/vec_dot_iq_ref.h"
#include "kernels/reference/vec_dot_q1_q2_ref.h"
#include "kernels/reference/vec_dot_ref.h"
#include "kernels/reference/vec_dot_ref_more.h"
#include "tensor/fp16.h"
#include "tensor/iq_decode.h"
#include "tensor/quant_blocks.h"
#include "tensor/quant_rows.h"
#include "tensor/quantize.h"

#include <algorithm>

#if defined(FOLIO_X86)
#include "kernels/vec_dot_avx2.h"
#include "kernels/vec_dot_avx512.h"
#include "kernels/vec_dot_iq_avx2.h"
#include "kernels/vec_dot_more_avx2.h"
#include "kernels/vec_dot_q1_q2_avx2.h"
#define FOLIO_AVX2(fn) fn
#define FOLIO_AVX512(fn) fn
#else
#define FOLIO_AVX2(fn) nullptr
#define FOLIO_AVX512(fn) nullptr
#endif

namespace folio {

namespace {

// clang-format off
constexpr WeightType kWeightTypes[] = {
    // type         activations  dequantize             quantize             reference dot   AVX2 dot [, AVX-512 dot]
    {DType::F32,   DType::F32,  dequantize_row_f32,   quantize_row_f32,   ref::dot_f32,   FOLIO_AVX2(avx2::dot_f32)},
    {DType::F16,   DType::F32,  dequantize_row_f16,   quantize_row_f16,   ref::dot_f16,   FOLIO_AVX2(avx2::dot_f16)},
    {DType::BF16,  DType::F32,  dequantize_row_bf16,  quantize_row_bf16,  ref::dot_bf16,  FOLIO_AVX2(avx2::dot_bf16)},
    {DType::Q8_0,  DType::Q8_0, dequantize_row_q8_0,  quantize_row_q8_0,  ref::dot_q8_0,  FOLIO_AVX2(avx2::dot_q8_0), FOLIO_AVX512(avx512::dot_q8_0), FOLIO_AVX512(avx512::dot_q8_0_rows)},
    {DType::Q4_0,  DType::Q8_0, dequantize_row_q4_0,  quantize_row_q4_0,  ref::dot_q4_0,  FOLIO_AVX2(avx2::dot_q4_0), FOLIO_AVX512(avx512::dot_q4_0), FOLIO_AVX512(avx512::dot_q4_0_rows)},
    {DType::MXFP4, DType::Q8_0, dequantize_row_mxfp4, quantize_row_mxfp4, ref::dot_mxfp4, FOLIO_AVX2(avx2::dot_mxfp4), FOLIO_AVX512(avx512::dot_mxfp4), FOLIO_AVX512(avx512::dot_mxfp4_rows)},
    {DType::Q4_K,  DType::Q8_K, dequantize_row_q4_k,  quantize_row_q4_k,  ref::dot_q4_k,  FOLIO_AVX2(avx2::dot_q4_k), FOLIO_AVX512(avx512::dot_q4_k), FOLIO_AVX512(avx512::dot_q4_k_rows)},
    {DType::Q6_K,  DType::Q8_K, dequantize_row_q6_k,  quantize_row_q6_k,  ref::dot_q6_k,  FOLIO_AVX2(avx2::dot_q6_k), FOLIO_AVX512(avx512::dot_q6_k), FOLIO_AVX512(avx512::dot_q6_k_rows)},
    // legacy, k-quant and IQ4 types (branch q-legacy)
    {DType::Q4_1,   DType::Q8_1, dequantize_row_q4_1,   quantize_row_q4_1,   ref::dot_q4_1,   FOLIO_AVX2(avx2::dot_q4_1)},
    {DType::Q5_0,   DType::Q8_0, dequantize_row_q5_0,   quantize_row_q5_0,   ref::dot_q5_0,   FOLIO_AVX2(avx2::dot_q5_0), FOLIO_AVX512(avx512::dot_q5_0), FOLIO_AVX512(avx512::dot_q5_0_rows)},
    {DType::Q5_1,   DType::Q8_1, dequantize_row_q5_1,   quantize_row_q5_1,   ref::dot_q5_1,   FOLIO_AVX2(avx2::dot_q5_1)},
    {DType::IQ4_NL, DType::Q8_0, dequantize_row_iq4_nl, quantize_row_iq4_nl, ref::dot_iq4_nl, FOLIO_AVX2(avx2::dot_iq4_nl), FOLIO_AVX512(avx512::dot_iq4_nl), FOLIO_AVX512(avx512::dot_iq4_nl_rows)},
    {DType::Q2_K,   DType::Q8_K, dequantize_row_q2_k,   quantize_row_q2_k,   ref::dot_q2_k,   FOLIO_AVX2(avx2::dot_q2_k), FOLIO_AVX512(avx512::dot_q2_k), FOLIO_AVX512(avx512::dot_q2_k_rows)},
    {DType::Q3_K,   DType::Q8_K, dequantize_row_q3_k,   quantize_row_q3_k,   ref::dot_q3_k,   FOLIO_AVX2(avx2::dot_q3_k), FOLIO_AVX512(avx512::dot_q3_k), FOLIO_AVX512(avx512::dot_q3_k_rows)},
    {DType::Q5_K,   DType::Q8_K, dequantize_row_q5_k,   quantize_row_q5_k,   ref::dot_q5_k,   FOLIO_AVX2(avx2::dot_q5_k), FOLIO_AVX512(avx512::dot_q5_k), FOLIO_AVX512(avx512::dot_q5_k_rows)},
    {DType::IQ4_XS, DType::Q8_K, dequantize_row_iq4_xs, quantize_row_iq4_xs, ref::dot_iq4_xs, FOLIO_AVX2(avx2::dot_iq4_xs), FOLIO_AVX512(avx512::dot_iq4_xs)},

    // grid i-quants and ternary types (branch q-grid): tensor/iq_decode.cpp, no quantizer (they
    // need an importance matrix), kernels/reference/vec_dot_iq_ref.cpp, kernels/vec_dot_iq_avx2.cpp
    {DType::IQ2_XXS, DType::Q8_K, dequantize_row_iq2_xxs, nullptr, ref::dot_iq2_xxs, FOLIO_AVX2(avx2::dot_iq2_xxs)},
    {DType::IQ2_XS,  DType::Q8_K, dequantize_row_iq2_xs,  nullptr, ref::dot_iq2_xs,  FOLIO_AVX2(avx2::dot_iq2_xs)},
    {DType::IQ2_S,   DType::Q8_K, dequantize_row_iq2_s,   nullptr, ref::dot_iq2_s,   FOLIO_AVX2(avx2::dot_iq2_s)},
    {DType::IQ3_XXS, DType::Q8_K, dequantize_row_iq3_xxs, nullptr, ref::dot_iq3_xxs, FOLIO_AVX2(avx2::dot_iq3_xxs)},
    {DType::IQ3_S,   DType::Q8_K, dequantize_row_iq3_s,   nullptr, ref::dot_iq3_s,   FOLIO_AVX2(avx2::dot_iq3_s)},
    {DType::IQ1_S,   DType::Q8_K, dequantize_row_iq1_s,   nullptr, ref::dot_iq1_s,   FOLIO_AVX2(avx2::dot_iq1_s)},
    {DType::IQ1_M,   DType::Q8_K, dequantize_row_iq1_m,   nullptr, ref::dot_iq1_m,   FOLIO_AVX2(avx2::dot_iq1_m)},
    {DType::TQ1_0,   DType::Q8_K, dequantize_row_tq1_0,   nullptr, ref::dot_tq1_0,   FOLIO_AVX2(avx2::dot_tq1_0)},
    {DType::TQ2_0,   DType::Q8_K, dequantize_row_tq2_0,   nullptr, ref::dot_tq2_0,   FOLIO_AVX2(avx2::dot_tq2_0)},

    // the low-bit types with one fp16 scale per block (issue 48 item 17): tensor/quant_q1_q2.cpp,
    // kernels/reference/vec_dot_q1_q2_ref.cpp, kernels/vec_dot_q1_q2_avx2.cpp
    {DType::Q1_0, DType::Q8_0, dequantize_row_q1_0, quantize_row_q1_0, ref::dot_q1_0, FOLIO_AVX2(avx2::dot_q1_0)},
    {DType::Q2_0, DType::Q8_0, dequantize_row_q2_0, quantize_row_q2_0, ref::dot_q2_0, FOLIO_AVX2(avx2::dot_q2_0)},

};
// clang-format on

// The derived areas of a Q8_0 activation row (kernel_table.h Q8_0ActLayout) from its blocks.
void fill_q8_0_act_extras(uint8_t* row, int64_t k) {
    const Q8_0ActLayout l = q8_0_act_layout(k);
    const auto* blocks = reinterpret_cast<const BlockQ8_0*>(row);
    auto* scales = reinterpret_cast<float*>(row + l.scales);
    auto* dup = reinterpret_cast<float*>(row + l.scales_dup);
    const int64_t nb = k / kQK8_0;
    for (int64_t b = 0; b < nb; ++b) {
        scales[b] = fp16_to_fp32(blocks[b].d);
        dup[2 * b] = dup[2 * b + 1] = scales[b];
    }
    int8_t* inter = reinterpret_cast<int8_t*>(row + l.interleaved);
    for (int64_t b = 0; b + 4 <= nb; b += 4, inter += 128) {
        const int64_t order[4] = {b, b + 2, b + 1, b + 3};
        for (int i = 0; i < 4; ++i) {
            const int8_t* x = blocks[order[i]].qs;
            std::copy(x, x + 16, inter + 16 * i);
            std::copy(x + 16, x + 32, inter + 64 + 16 * i);
        }
    }
}

// The derived pairs area of a Q8_K activation row (kernel_table.h Q8_KActLayout).
void fill_q8_k_act_extras(uint8_t* row, int64_t k) {
    const Q8_KActLayout l = q8_k_act_layout(k);
    const auto* blocks = reinterpret_cast<const BlockQ8K*>(row);
    int8_t* pairs = reinterpret_cast<int8_t*>(row + l.pairs);
    for (int64_t b = 0; b < k / kQKK; ++b)
        for (int half = 0; half < 2; ++half, pairs += 128) {
            const int8_t* x = blocks[b].qs + 128 * half;
            for (int piece = 0; piece < 4; ++piece) {
                // Low 32 of chunk 0, low 32 of chunk 1, high 32 of chunk 0, high 32 of chunk 1.
                const int from = 64 * (piece % 2) + 32 * (piece / 2);
                std::copy(x + from, x + from + 32, pairs + 32 * piece);
            }
        }
}

size_t q8_0_row_bytes(int64_t k) {
    return q8_0_act_layout(k).row_bytes;
}
size_t q8_1_row_bytes(int64_t k) {
    return dtype_row_bytes(DType::Q8_1, static_cast<uint64_t>(k));
}
size_t q8_k_row_bytes(int64_t k) {
    return q8_k_act_layout(k).row_bytes;
}

// The Q8_1 quantizer is the scalar reference one on every path: it is cheap next to the dot
// products. The AVX2 Q8_K quantizer writes the reference's bytes (it matters for prefill: every
// token is quantized once per weight format and routed expert).
constexpr ActivationFormat kActivationFormats[] = {
    {DType::Q8_0, q8_0_row_bytes, quantize_row_q8_0_act, FOLIO_AVX2(avx2::quantize_q8_0),
     fill_q8_0_act_extras},
    {DType::Q8_1, q8_1_row_bytes, quantize_row_q8_1_act, nullptr, nullptr},
    {DType::Q8_K, q8_k_row_bytes, quantize_row_q8_k, FOLIO_AVX2(avx2::quantize_q8_k),
     fill_q8_k_act_extras},
};

bool fast_path(KernelPath path) {
    return path != KernelPath::Reference && avx2_kernels_available();
}

} // namespace

const WeightType* find_weight_type(DType type) {
    for (const WeightType& w : kWeightTypes)
        if (w.type == type)
            return &w;
    return nullptr;
}

VecDotFn weight_dot(const WeightType& w, KernelPath path) {
    if (path == KernelPath::Auto && w.dot_avx512 != nullptr && avx512_vnni_kernels_available())
        return w.dot_avx512;
    return fast_path(path) && w.dot_avx2 != nullptr ? w.dot_avx2 : w.dot_ref;
}

VecDotRowsFn weight_dot_rows(const WeightType& w, KernelPath path) {
    return path == KernelPath::Auto && w.dot_rows_avx512 != nullptr &&
                   avx512_vnni_kernels_available()
               ? w.dot_rows_avx512
               : nullptr;
}

const ActivationFormat* find_activation_format(DType format) {
    for (const ActivationFormat& f : kActivationFormats)
        if (f.format == format)
            return &f;
    return nullptr;
}

QuantizeRowFn activation_quantizer(const ActivationFormat& f, KernelPath path) {
    return fast_path(path) && f.quantize_avx2 != nullptr ? f.quantize_avx2 : f.quantize_ref;
}

} // namespace folio
