#pragma once
// Reference row conversions of each weight type, the functions the weight-type registry
// (kernels/weight_types.cpp) points at. dequantize_row_*: n stored elements (a multiple of the
// block size) -> f32; quantize_row_*: the weight quantizers (no importance matrix) following the
// rules of llama.cpp's *_ref quantizers (ggml/src/ggml-quants.c). Use the checked
// dequantize_row / quantize_row of kernels/weight_rows.h from outside the registry.

#include <cstdint>

namespace folio {

// tensor/quant_basic.cpp
void dequantize_row_f32(const void* src, float* y, int64_t n);
void dequantize_row_f16(const void* src, float* y, int64_t n);
void dequantize_row_bf16(const void* src, float* y, int64_t n);
void dequantize_row_q8_0(const void* src, float* y, int64_t n);
void dequantize_row_q4_0(const void* src, float* y, int64_t n);
void dequantize_row_mxfp4(const void* src, float* y, int64_t n);
void quantize_row_f32(const float* x, void* dst, int64_t n);
void quantize_row_f16(const float* x, void* dst, int64_t n);
void quantize_row_bf16(const float* x, void* dst, int64_t n);
void quantize_row_q8_0(const float* x, void* dst, int64_t n);
void quantize_row_q4_0(const float* x, void* dst, int64_t n);
void quantize_row_mxfp4(const float* x, void* dst, int64_t n);

// tensor/quant_legacy.cpp (ggml-common.h block_q4_1, _q5_0, _q5_1, _iq4_nl, _iq4_xs)
void dequantize_row_q4_1(const void* src, float* y, int64_t n);
void dequantize_row_q5_0(const void* src, float* y, int64_t n);
void dequantize_row_q5_1(const void* src, float* y, int64_t n);
void dequantize_row_iq4_nl(const void* src, float* y, int64_t n);
void dequantize_row_iq4_xs(const void* src, float* y, int64_t n);
void quantize_row_q4_1(const float* x, void* dst, int64_t n);
void quantize_row_q5_0(const float* x, void* dst, int64_t n);
void quantize_row_q5_1(const float* x, void* dst, int64_t n);
void quantize_row_iq4_nl(const float* x, void* dst, int64_t n);
void quantize_row_iq4_xs(const float* x, void* dst, int64_t n);

// tensor/quant_k235.cpp (ggml-common.h block_q2_K, _q3_K, _q5_K)
void dequantize_row_q2_k(const void* src, float* y, int64_t n);
void dequantize_row_q3_k(const void* src, float* y, int64_t n);
void dequantize_row_q5_k(const void* src, float* y, int64_t n);
void quantize_row_q2_k(const float* x, void* dst, int64_t n);
void quantize_row_q3_k(const float* x, void* dst, int64_t n);
void quantize_row_q5_k(const float* x, void* dst, int64_t n);

// tensor/quant_k46.cpp
void dequantize_row_q4_k(const void* src, float* y, int64_t n);
void dequantize_row_q6_k(const void* src, float* y, int64_t n);
void quantize_row_q4_k(const float* x, void* dst, int64_t n);
void quantize_row_q6_k(const float* x, void* dst, int64_t n);

// tensor/quant_q1_q2.cpp (tensor/quant_blocks_q1_q2.h)
void dequantize_row_q1_0(const void* src, float* y, int64_t n);
void dequantize_row_q2_0(const void* src, float* y, int64_t n);
void quantize_row_q1_0(const float* x, void* dst, int64_t n);
void quantize_row_q2_0(const float* x, void* dst, int64_t n);

// The scale searches of ggml-quants.c the k-quant reference quantizers share.
// make_qkx2_quants: weighted least-squares (scale, min) of n values on levels 0..nmax with
// nstep+1 trial scales (rmin + rdelta·is + nmax)/(max − min); returns the scale, *neg_min = −min.
// use_mad: errors weighted |diff| instead of diff² (Q2_K).
float make_qkx2_quants(int n, int nmax, const float* x, const float* w, uint8_t* L, float* neg_min,
                       uint8_t* Laux, float rmin, float rdelta, int nstep, bool use_mad = false);
// The Q4_K / Q5_K super-block: per 32-element sub-block a make_qkx2_quants search with
// weights sqrt(mean x²) + |x| on levels 0..nmax (trial scales from rmin, step 0.1, nstep steps);
// the 8 scales and mins coded in 6 bits against d = max scale / 63 and dmin = max min / 63,
// packed as get_scale_min_k4 reads them; then every element re-quantized with the stored fp16
// scales into L[0..255] (levels 0..nmax). The caller packs L into its block's bits.
void quantize_k_scale_min_superblock(const float* x, int nmax, float rmin, int nstep,
                                     uint8_t scales[12], uint16_t* d, uint16_t* dmin,
                                     uint8_t L[256]);
// make_qx_quants(n, nmax, x, L, rmse_type = 1): signed levels −nmax..nmax−1 stored as l + nmax.
float make_qx_quants_rmse1(int n, int nmax, const float* x, int8_t* L);

} // namespace folio
