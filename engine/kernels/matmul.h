#pragma once
// Matrix × vector / matrix × matrix with weights of any supported type (F32 F16 BF16 Q8_0 Q4_0
// Q4_K Q6_K MXFP4), f32 activations in and out. Semantics of ggml mul_mat
// (GGUF spec, ggml docs/gguf.md: ne[0] is the row length): weight W with ne [K, N] (N rows of K
// elements), activations x with ne [K, T] (T rows of K floats) -> y with ne [N, T]:
//     y[t·y_stride + n] = Σ_k W[k, n] · x[t·x_stride + k]
//
// Arithmetic (as llama.cpp's CPU backend, ggml-cpu.c type_traits_cpu vec_dot_type):
//  * Q8_0, Q4_0, MXFP4 weights: each activation row is first quantized to Q8_0 blocks the way the
//    SIMD quantizer does it (d = amax/127 stored fp16, id = 127/amax, round half to even), then
//    every block contributes (d_w·d_x)·Σ q_w·q_x with the integer sum exact (AVX2:
//    maddubs/madd on |w| and sign-adjusted x). MXFP4 uses the doubled E2M1 table and the half
//    E8M0 scale 2^(e-128).
//  * Q4_K, Q6_K weights: activations quantized to Q8_K (block_q8_K); per super-block
//    d_x·d·Σ sc_j·Σ q·q_x − d_x·dmin·Σ m_j·bsum_j (Q4_K) and d_x·d·Σ sc_s·Σ (q−32)·q_x (Q6_K),
//    integer sums exact.
//  * F32: pure f32 FMA. F16 / BF16: the weights are widened to f32 on the fly and multiplied with
//    the f32 activations (llama.cpp instead rounds the activations to F16/BF16 first, so results
//    differ from it by that rounding; ours are the more accurate).
// The reference kernels (kernels/reference/) implement exactly the same arithmetic in scalar
// code, so reference and AVX2 agree up to float summation order.
//
// Work is split over tiles of output rows (N) and, for large T, token blocks, across
// ctx.n_threads OpenMP threads (one token: a contiguous share of the rows per thread, one thread
// below 64 KB of weights); results do not depend on the thread count.
//
// Batches of at least kGemmMinTokens rows go, on AVX-512 VNNI under KernelPath::Auto, to the
// prefill GEMMs: kernels/gemm_q8_0.h for Q8_0 (the AVX2 kernel's bits) and Q4_0, Q5_0, IQ4_NL,
// MXFP4; kernels/gemm_kquant.h for Q4_K, Q5_K, Q6_K (within float rounding of the vec_dot kernels,
// docs/NUMERICS.md).

#include "folio/error.h"
#include "kernels/kernel_context.h"
#include "tensor/tensor_view.h"

#include <cstdint>
#include <span>
#include <vector>

namespace folio {

// Activation rows converted to the weight type's dot-product format: F32 (kept as a pointer to
// the caller's rows), Q8_0 or Q8_K blocks. Quantize once, reuse for several weights with the
// same format and K (e.g. ffn_gate and ffn_up).
struct QuantizedActivations {
    DType format = DType::F32;
    int64_t k = 0;
    int64_t n_rows = 0;
    size_t row_bytes = 0;         // stride between rows in bytes (Q8_0 rows: see
                                  // q8_0_act_row_bytes in kernels/kernel_table.h)
    const void* rows = nullptr;   // first row (into `storage` or the caller's f32 data)
    std::vector<uint8_t> storage; // at least n_rows · row_bytes (kept and reused when it is larger)
    const uint8_t* row(int64_t t) const {
        return static_cast<const uint8_t*>(rows) + t * row_bytes;
    }
};

// F32 for F32/F16/BF16 weights, Q8_0 for Q8_0/Q4_0/MXFP4, Q8_K for Q4_K/Q6_K.
DType activation_format(DType weight_type);

// Converts n_rows rows of k floats (row stride x_stride floats) for a weight of weight_type. With
// `row_ids` non-null, row i of the result is x row row_ids[i] (gather).
Status quantize_activations(const KernelContext& ctx, DType weight_type, const float* x, int64_t k,
                            int64_t n_rows, int64_t x_stride, QuantizedActivations* out,
                            const int32_t* row_ids = nullptr);

// y = W·x for a 2-D weight view (ne[2] = ne[3] = 1; use slice_matrix for a 3-D tensor).
Status matmul(const KernelContext& ctx, const TensorView& w, const float* x, int64_t x_stride,
              int64_t n_tokens, float* y, int64_t y_stride);
// Same with activations already converted by quantize_activations.
Status matmul(const KernelContext& ctx, const TensorView& w, const QuantizedActivations& x,
              float* y, int64_t y_stride);

// Expert e of a 3-D expert tensor [K, N, E] (no copy: pointer arithmetic over slice e).
Status matmul_expert(const KernelContext& ctx, const TensorView& experts, int64_t e, const float* x,
                     int64_t x_stride, int64_t n_tokens, float* y, int64_t y_stride);
// One token through every matrix of a 3-D tensor [K, N, H], each with its own activation row
// (MLA's per-head W_UK and W_UV in decode, DeepSeek-V2, arXiv:2405.04434): for h < H,
//     y[h·y_stride + n] = Σ_k W_h[k, n] · x[h·x_stride + k].
// The same numbers as matmul_expert(h) per slice, in one parallel region whose threads each
// stream a contiguous share of the H·N rows, with the H activation rows converted at once.
Status matmul_slices(const KernelContext& ctx, const TensorView& w, const float* x,
                     int64_t x_stride, float* y, int64_t y_stride);
// One token through several 2-D weights of one K that take the same input (MLA's attn_q_a and
// attn_kv_a_mqa; KDA's q, k, v, f_a, g_a and beta): ys[i][0 .. N_i) = ws[i]·x. matmul's
// numbers, x converted once per activation format, one parallel region for all of them (a fork
// costs as much as streaming ~100 KB on the 2-core machines).
Status matmul_one_input(const KernelContext& ctx, std::span<const TensorView> ws, const float* x,
                        std::span<float* const> ys);
// Gathered variant for the tokens routed to expert e: x holds n_tokens rows (stride x_stride);
// for i < n_ids, output row token_ids[i] of y (stride y_stride) = W_e · x row token_ids[i]. Other
// rows of y are untouched. A token index outside [0, n_tokens) is an InvalidArgument error.
Status matmul_expert_gathered(const KernelContext& ctx, const TensorView& experts, int64_t e,
                              const float* x, int64_t x_stride, int64_t n_tokens,
                              const int32_t* token_ids, int64_t n_ids, float* y, int64_t y_stride);

} // namespace folio
