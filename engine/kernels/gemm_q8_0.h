#pragma once
// Internal: the prefill GEMM for Q8_0 weights × Q8_0 activations (matmul with many tokens); also
// takes Q4_0, Q5_0, IQ4_NL and MXFP4 weights, unpacked to Q8_0 blocks when packed (MXFP4's
// power-of-two scales as bf16, see gemm_q8_0_bf16_scales).
//
// The vec_dot kernels (kernel_table.h) walk one weight row against at most 4 activation rows, so
// every weight byte is loaded and sign-adjusted once per 4 tokens and each block's 32 products are
// reduced horizontally. The GEMM instead repacks a chunk of weight rows and the batch of
// activations so that one 512-bit vpdpbusd produces 16 finished 4-product partial sums, one per
// (row, block) pair of 4 rows × 4 consecutive blocks; 8 of them complete the 16 exact int32 block
// sums with no horizontal step, and a register tile of 8 rows × 4 tokens reuses each loaded
// weight vector 4 times and each activation vector 2 times.
//
// Packed weights (per chunk of kGemmRows rows, in 4 quads of 4 rows; rows past N are zero):
//   for each quad, for each group g of 4 blocks (b = 4g .. 4g+3; blocks past K/32 are zero):
//     8 × 64 bytes: for q = 0..7, for row r = 0..3, for i = 0..3: w_r[b+i].qs[4q .. 4q+3] + 128
//                   (as unsigned bytes: vpdpbusd multiplies unsigned by signed bytes)
//     16 fp16:      for r, for i: w_r[b+i].d
//   = kGemmWeightGroupBytes, the size of the 16 source blocks.
// Packed activations (per token; tokens past T are zero):
//   for each group g: 8 × 16 bytes: for q, for i: x[b+i].qs[4q .. 4q+3]
//                     4 int32: -128·Σ x[b+i].qs  (so Σ (w+128)·x - 128·Σ x = Σ w·x, exact)
//                     4 floats: fp32(x[b+i].d)
//   = kGemmActGroupBytes.
//
// Arithmetic: the same as the AVX2 vec_dot kernel (vec_dot_avx2.cpp dot_blocks32), step for step:
// per row and token four float accumulators, accumulator i taking the blocks b ≡ i (mod 4) of
// the full groups as acc = fma(d_w·d_x, (float) isum, acc); the leftover K/32 mod 4 blocks summed
// in order into a separate tail the same way starting from 0; result (acc0 + acc2) + (acc1 + acc3)
// + tail. The int32 sums are exact, so the results equal the AVX2 kernel's bit for bit
// (kernels/reference/gemm_ref.cpp is the scalar statement of this order).
//
// AVX2 form (CPUs without AVX-512 VNNI, gemm_q8_0_avx2.cpp): vpmaddubsw + vpmaddwd with the sign
// trick instead of vpdpbusd, so the weights stay signed, and a 256-bit register holds 2 rows × 4
// blocks. Packed weights (per chunk of kGemmRows rows, in kGemmRows/2 duos of 2 rows):
//   for each duo, for each group g: 8 × 32 bytes: for q = 0..7, for r = 0..1, for i = 0..3:
//                                   w_r[b+i].qs[4q .. 4q+3] (signed)
//                                   8 floats: for r, for i: fp32(w_r[b+i].d) (MXFP4: its scale)
//   = kGemmAvx2WeightGroupBytes.
// The activations are packed as above (the -128·Σx words unused). Same arithmetic, same bits.

#include "kernels/gemm_driver.h"
#include "kernels/kernel_context.h"
#include "tensor/tensor_view.h"

#include <cstddef>
#include <cstdint>

namespace folio {

struct QuantizedActivations;

inline constexpr size_t kGemmWeightGroupBytes = 8 * 64 + 16 * 2;
inline constexpr size_t kGemmActGroupBytes = 8 * 16 + 4 * 4 + 4 * 4;
inline constexpr size_t kGemmAvx2WeightGroupBytes = 8 * 32 + 8 * 4;

// Groups of 4 blocks per packed row: K/32 rounded up to a multiple of 4, over 4.
constexpr int64_t gemm_groups(int64_t k) {
    return (k / 32 + 3) / 4;
}

// True when matmul under `path` sends Q8_0 batches to the GEMM (KernelPath::Auto on AVX-512 VNNI
// or AVX2 CPUs; FOLIO_KERNELS=avx2 takes the AVX2 form on an AVX-512 one).
bool gemm_q8_0_available(KernelPath path);
// True for the weight types the GEMM takes: Q8_0 and the types whose blocks are exactly a Q8_0
// block (a scale, 32 int8 values) after unpacking, Q4_0, Q5_0, IQ4_NL and MXFP4; the packer
// unpacks them.
// Their vec_dot kernels sum in other orders, so for them the GEMM agrees with the vec_dot path
// within float rounding (for Q8_0 bit for bit).
bool gemm_q8_0_weight_type(DType type);
// True for MXFP4: its scale 2^(e-128) goes into the packed d slot as bf16 bits (exact for every
// e; fp16 holds only e in 104 .. 143), and the chunk kernel reads bf16 scales. Its values are
// kMxfp4Values (int8), so the block sums are exact as for the other types.
bool gemm_q8_0_bf16_scales(DType type);

// Block b of a row of a gemm_q8_0_weight_type other than Q8_0 as the equal Q8_0 block (MXFP4:
// its scale as bf16 bits in d), or null for other types.
struct BlockQ8_0;
using GemmBlockAsQ8_0Fn = void (*)(const uint8_t* row, int64_t b, BlockQ8_0* out);
GemmBlockAsQ8_0Fn gemm_block_as_q8_0(DType type);

// The scalar packers, the reference for the AVX-512 ones (avx512:: below) that gemm_q8_0 uses.
// Packs rows n0 .. n0+kGemmRows-1 of a 2-D Q8_0 (Q4_0, Q5_0, IQ4_NL, MXFP4) weight (rows from N on
// are zero) into dst (4 · gemm_groups(K) · kGemmWeightGroupBytes bytes).
void gemm_pack_q8_0_weights(const TensorView& w, int64_t n0, uint8_t* dst);
// Packs one Q8_0 activation row (kernel_table.h Q8_0ActLayout) of k elements, or a zero row
// when act_row is null, into dst (gemm_groups(k) · kGemmActGroupBytes bytes).
void gemm_pack_q8_0_activations(const uint8_t* act_row, int64_t k, uint8_t* dst);

// y = W·x for a 2-D weight of a gemm_q8_0_weight_type and Q8_0 activations (shapes already checked
// by matmul).
void gemm_q8_0(const KernelContext& ctx, const TensorView& w, const QuantizedActivations& x,
               float* y, int64_t y_stride);

namespace avx512 {
// One packed weight chunk (rows_valid <= kGemmRows of its rows are written) against n_tokens
// packed activation rows (x_stride bytes apart; n_tokens rounded up to kGemmTokenPad must be
// packed): y[t·y_stride + r] for r < rows_valid, t < n_tokens. k = the row length.
void gemm_q8_0_chunk(int64_t k, const uint8_t* w_packed, int64_t rows_valid,
                     const uint8_t* x_packed, size_t x_stride, int64_t n_tokens, float* y,
                     int64_t y_stride);
// The same with the weight scales read as bf16 (gemm_q8_0_bf16_scales types).
void gemm_q8_0_chunk_bf16_scales(int64_t k, const uint8_t* w_packed, int64_t rows_valid,
                                 const uint8_t* x_packed, size_t x_stride, int64_t n_tokens,
                                 float* y, int64_t y_stride);
// The same bytes as the scalar packers above (gemm_q8_0_pack_avx512.cpp): a chunk of a
// gemm_q8_0_weight_type weight whose row r starts at rows[r] (null: a padding row) with k
// elements; one activation row given as its blocks and fp32 scales (null blocks: a zero row).
void gemm_pack_q8_0_weights(DType type, const uint8_t* const rows[kGemmRows], int64_t k,
                            uint8_t* dst);
void gemm_pack_q8_0_activations(const uint8_t* blocks, const float* scales, int64_t k,
                                uint8_t* dst);
} // namespace avx512

namespace avx2 {
// The AVX2 forms of the chunk kernel and the weight packer (layout above: duos, signed weights,
// fp32 scales for every type); the activations are packed by the scalar packer.
void gemm_q8_0_chunk(int64_t k, const uint8_t* w_packed, int64_t rows_valid,
                     const uint8_t* x_packed, size_t x_stride, int64_t n_tokens, float* y,
                     int64_t y_stride);
void gemm_pack_q8_0_weights(DType type, const uint8_t* const rows[kGemmRows], int64_t k,
                            uint8_t* dst);
} // namespace avx2

// gemm_q8_0 through the AVX2 form whatever the CPU has beyond AVX2 (tests; needs
// avx2_kernels_available()).
void gemm_q8_0_avx2(const KernelContext& ctx, const TensorView& w, const QuantizedActivations& x,
                    float* y, int64_t y_stride);

} // namespace folio
