#pragma once
// Internal: the prefill GEMM for K-quant weights (Q2_K .. Q6_K) and IQ4_XS × Q8_K activations
// (matmul with many tokens: Q4_K, Q5_K, Q6_K and IQ4_XS on AVX-512 VNNI or AVX2, Q3_K and Q2_K on
// AVX2, also on AVX-512 machines; the schedule is gemm_driver.h's).
//
// A K-quant super-block (ggml-common.h block_q4_K / block_q5_K /
// block_q6_K) holds 256 weights in sub-blocks of L elements, each with its own scale:
//   Q4_K, Q5_K: L = 32, w = d·sc_j·q − dmin·m_j with q in 0..15 / 0..31, 6-bit sc_j and m_j
//               (get_scale_min_k4), fp16 d and dmin;
//   Q6_K:       L = 16, w = d·sc_j·(q − 32) with q in 0..63, int8 sc_j, fp16 d;
//   IQ4_XS:     L = 32, w = d·(ls_j − 32)·v with v = kvalues_iq4nl[nibble] in −127..113, 6-bit
//               ls_j (block_iq4_xs), fp16 d; packed as q = v + 128 (1..241), so it is the L = 16
//               case's form with offset 128: dsc_j = d·(ls_j − 32), S_j = Σ q·x − 128·B_j;
//   Q3_K:       L = 16, w = d·(sc_j − 32)·(q − 4) with q = 2 low bits + 4·hmask bit in 0..7,
//               6-bit sc_j (q3k_scales): Q6_K's form with offset 4, dsc_j = d·(sc_j − 32);
//   Q2_K:       L = 16, w = d·sc_j·q − dmin·m_j with q in 0..3, 4-bit sc_j and m_j: Q4_K's
//               form at L = 16 (its packed super-blocks carry a dmn area, 1536 bytes).
// With dsc_j = d·sc_j and dmn_j = dmin·m_j (exact in fp32: an fp16 times an integer below 2^8)
// and Q8_K activations (d_x, int8 x, bsums = Σx per 16 elements) a super-block contributes
//   Q4_K, Q5_K: d_x·Σ_j (dsc_j·S_j − dmn_j·B_j),  S_j = Σ q·x, B_j = Σ x over sub-block j;
//   Q6_K:       d_x·Σ_j dsc_j·S_j,                S_j = Σ (q − 32)·x = Σ q·x − 32·B_j;
// every S_j, B_j an exact integer. vpdpbusd needs the weights unsigned, so q is packed as is and
// for the offset forms (Q6_K: 32, IQ4_XS: 128, Q3_K: 4; kquant_int_offset) the integer
// accumulator starts at −offset·B_j (from bsums). The AVX2 IQ4_XS kernel instead takes q − 128
// as signed bytes (the sign trick) and starts at 0: the same S_j.
//
// The nibbles (and Q5_K high bits, Q6_K's ql/qh, IQ4_XS's levels) are unpacked to bytes once per
// chunk of kGemmRows rows when the chunk is packed, so the kernel only runs vpdpbusd: one 512-bit
// instruction adds 4 products to each of 16 lanes (4 rows × 4 sub-blocks), L/4 of them complete
// the 16 sub-block sums of a group of 4 sub-blocks.
//
// Packed weights (per chunk: 4 quads of 4 rows, rows past N zero; per quad, per super-block,
// kquant_weight_sb_bytes(L) bytes; G = 64/L groups of 4 sub-blocks):
//   G × L/4 × 64 bytes: group g, step q, row r, lane i, byte e: q of row r, sub-block 4g + i,
//                       element 4q + e (unsigned bytes)
//   G × 16 floats:      dsc of (row r, sub-block 4g + i) at [g][4r + i]
//   G × 16 floats:      dmn, same order (L = 32, zero for IQ4_XS; Q2_K at L = 16)
// Packed activations (per token, tokens past T zero; per super-block kquant_act_sb_bytes(L)):
//   G × L/4 × 16 bytes: group g, step q, lane i, byte e: x of sub-block 4g + i, element 4q + e
//   G × 4 values:       of sub-block 4g + i at [g][i]: float B (offset 0: the min forms), or
//                       int32 −offset·B (Q6_K, IQ4_XS, Q3_K)
//   4 floats:           d_x (4 copies)
//
// Arithmetic, per row and token, four float accumulators acc_i (lane i: sub-blocks ≡ i mod 4),
// per super-block in order:
//   u_i = 0; for g = 0..G-1, j = 4g + i: u_i = fma(float(S_j), dsc_j, u_i);
//                                        offset 0: u_i = fma(−dmn_j, float(B_j), u_i)
//   acc_i = fma(d_x, u_i, acc_i)
// result (acc_0 + acc_2) + (acc_1 + acc_3). kernels/reference/gemm_ref.cpp states this order in
// scalar code on the blocks as stored; the AVX-512 kernel matches it bit for bit. It differs from
// the vec_dot kernels (which sum the scaled integers first, then scale once per super-block)
// only by float rounding: docs/NUMERICS.md gives the bound the tests use.

#include "kernels/gemm_driver.h"
#include "kernels/kernel_context.h"
#include "tensor/tensor_view.h"

#include <cstddef>
#include <cstdint>

namespace folio {

// Sub-block length L of a weight type in the K-quant GEMM: 32 (Q4_K, Q5_K, IQ4_XS), 16 (Q6_K,
// Q3_K, Q2_K), or 0 when the type has no K-quant GEMM.
int kquant_gemm_sub_len(DType type);
// The integer offset folded into the sub-block sums: 32 (Q6_K), 128 (IQ4_XS), 4 (Q3_K), 0 (Q4_K,
// Q5_K, Q2_K: their dmin·m_j term is applied in float instead).
int kquant_int_offset(DType type);

constexpr int kquant_groups(int sub_len) {
    return 64 / sub_len;
}
// Packed bytes of one quad's super-block: quants, dsc and (L = 32, or L = 16 with mins: Q2_K)
// dmn.
constexpr size_t kquant_weight_sb_bytes(int sub_len, bool l16_mins = false) {
    return 1024 +
           64 * static_cast<size_t>(kquant_groups(sub_len)) * (sub_len == 32 || l16_mins ? 2 : 1);
}
// kquant_weight_sb_bytes for a weight type of this GEMM.
size_t kquant_type_sb_bytes(DType type);
constexpr size_t kquant_act_sb_bytes(int sub_len) {
    return 256 + 16 * static_cast<size_t>(kquant_groups(sub_len)) + 16;
}

// True when matmul under `path` sends batches of `type` weights to this GEMM (KernelPath::Auto and
// a type above on a CPU with AVX2: the AVX-512 VNNI kernels for Q4_K, Q5_K, Q6_K and IQ4_XS where
// the CPU has them, else and for Q3_K / Q2_K the AVX2 ones, gemm_kquant_avx2.cpp).
bool gemm_kquant_available(DType type, KernelPath path);
// True when gemm_kquant runs `type` on the AVX-512 VNNI kernels here (Q4_K, Q5_K, Q6_K, IQ4_XS on
// such a CPU); otherwise the AVX2 ones. The benches name the kernels that ran.
bool gemm_kquant_on_avx512(DType type);

// Packs rows n0 .. n0+kGemmRows-1 of a 2-D weight of a type above (rows from N on are zero) into
// dst (4 · K/256 · kquant_type_sb_bytes bytes).
void gemm_pack_kquant_weights(const TensorView& w, int64_t n0, uint8_t* dst);
// Packs one Q8_K activation row of k elements (or a zero row when act_row is null) for sub-block
// length sub_len and integer offset int_offset (0: float B) into dst (K/256 ·
// kquant_act_sb_bytes(sub_len) bytes).
void gemm_pack_q8_k_activations(const uint8_t* act_row, int64_t k, int sub_len, int int_offset,
                                uint8_t* dst);

// y = W·x for a 2-D K-quant weight and Q8_K activations (shapes already checked by matmul).
void gemm_kquant(const KernelContext& ctx, const TensorView& w, const QuantizedActivations& x,
                 float* y, int64_t y_stride);

namespace avx512 {
// The same bytes as gemm_pack_kquant_weights, for a Q4_K / Q5_K / Q6_K / IQ4_XS chunk whose row r
// starts at rows[r] (null: a padding row) and has k elements.
void gemm_pack_kquant_weights(DType type, const uint8_t* const rows[kGemmRows], int64_t k,
                              uint8_t* dst);
// GemmKernel::chunk for sub-block length 32 with mins (Q4_K, Q5_K), 16 (Q6_K) and 32 with an
// integer offset (IQ4_XS); layouts above.
void gemm_kquant_chunk_l32(int64_t k, const uint8_t* w_packed, int64_t rows_valid,
                           const uint8_t* x_packed, size_t x_stride, int64_t n_tokens, float* y,
                           int64_t y_stride);
void gemm_kquant_chunk_l16(int64_t k, const uint8_t* w_packed, int64_t rows_valid,
                           const uint8_t* x_packed, size_t x_stride, int64_t n_tokens, float* y,
                           int64_t y_stride);
void gemm_kquant_chunk_l32_offset(int64_t k, const uint8_t* w_packed, int64_t rows_valid,
                                  const uint8_t* x_packed, size_t x_stride, int64_t n_tokens,
                                  float* y, int64_t y_stride);
} // namespace avx512

namespace avx2 {
// The AVX2 chunk kernels over the same packed layouts (gemm_kquant_avx2.cpp): Q4_K and Q5_K (L = 32
// with mins), Q6_K and Q3_K (L = 16, offset), Q2_K (L = 16 with mins) and IQ4_XS (L = 32, its
// bytes q − 128 taken as signed: packed as q they reach 241, too large for vpmaddubsw's int16
// pair sums).
void gemm_kquant_chunk_l32(int64_t k, const uint8_t* w_packed, int64_t rows_valid,
                           const uint8_t* x_packed, size_t x_stride, int64_t n_tokens, float* y,
                           int64_t y_stride);
void gemm_kquant_chunk_l16(int64_t k, const uint8_t* w_packed, int64_t rows_valid,
                           const uint8_t* x_packed, size_t x_stride, int64_t n_tokens, float* y,
                           int64_t y_stride);
void gemm_kquant_chunk_l16_mins(int64_t k, const uint8_t* w_packed, int64_t rows_valid,
                                const uint8_t* x_packed, size_t x_stride, int64_t n_tokens,
                                float* y, int64_t y_stride);
void gemm_kquant_chunk_l32_signed(int64_t k, const uint8_t* w_packed, int64_t rows_valid,
                                  const uint8_t* x_packed, size_t x_stride, int64_t n_tokens,
                                  float* y, int64_t y_stride);
// The same bytes as gemm_pack_kquant_weights for a chunk of any type above (rows as the AVX-512
// packer takes them; gemm_kquant_pack_avx2.cpp).
void gemm_pack_kquant_weights(DType type, const uint8_t* const rows[kGemmRows], int64_t k,
                              uint8_t* dst);
} // namespace avx2

// gemm_kquant through the AVX2 kernels whatever the CPU has beyond AVX2 (tests; needs
// avx2_kernels_available() and a weight of a type above).
void gemm_kquant_avx2(const KernelContext& ctx, const TensorView& w, const QuantizedActivations& x,
                      float* y, int64_t y_stride);

} // namespace folio
