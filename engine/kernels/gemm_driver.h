#pragma once
// Internal: the schedule shared by the prefill GEMMs (gemm_q8_0.h, gemm_kquant.h). Each GEMM
// packs the batch of activations once (all tokens, in parallel), then walks tiles of kGemmRows
// weight rows × kGemmTokenBlock tokens: the static schedule hands each thread a contiguous run of
// tiles, chunk-major, so each thread packs each of its weight chunks once into its own buffer and
// that chunk stays in L2 while the token blocks stream past. Only the packers and the chunk
// kernel differ between weight types.

#include "kernels/kernel_context.h"
#include "tensor/tensor_view.h"

#include <cstddef>
#include <cstdint>

namespace folio {

struct QuantizedActivations;

inline constexpr int64_t kGemmRows = 16;       // weight rows per packed chunk (4 quads of 4 rows)
inline constexpr int64_t kGemmTokenPad = 4;    // activations are packed in multiples of this
inline constexpr int64_t kGemmTokenBlock = 64; // tokens per schedule tile
// matmul takes a GEMM from this many activation rows on (fewer: the vec_dot kernels, which need
// no packing; decode is always T = 1).
inline constexpr int64_t kGemmMinTokens = 16;

struct GemmKernel {
    size_t x_row_bytes;   // packed bytes of one activation row (K elements)
    size_t w_chunk_bytes; // packed bytes of one chunk of kGemmRows weight rows
    // Rows n0 .. n0 + kGemmRows - 1 of w (rows from N on as zero weights) -> dst.
    void (*pack_weights)(const TensorView& w, int64_t n0, uint8_t* dst);
    // One activation row (the matmul activation format) of k elements, or a zero row when
    // act_row is null -> dst.
    void (*pack_activations)(const uint8_t* act_row, int64_t k, uint8_t* dst);
    // One packed chunk (rows_valid of its rows written) × n_tokens packed activation rows
    // (x_stride bytes apart, rounded up to kGemmTokenPad packed) -> y[t·y_stride + r].
    void (*chunk)(int64_t k, const uint8_t* w_packed, int64_t rows_valid, const uint8_t* x_packed,
                  size_t x_stride, int64_t n_tokens, float* y, int64_t y_stride);
};

// y = W·x through `kernel` (shapes already checked by matmul).
void run_gemm(const KernelContext& ctx, const GemmKernel& kernel, const TensorView& w,
              const QuantizedActivations& x, float* y, int64_t y_stride);

} // namespace folio
