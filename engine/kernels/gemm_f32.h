#pragma once
// Single-threaded f32 matrix products for prefill attention (scores = Q·Kᵀ, out += P·V, the MLA
// and KDA expansions), in place of Eigen: the engine is built for the x86-64 baseline, so Eigen
// runs SSE2 without FMA there, while these kernels pick AVX2+FMA or AVX-512 at run time.
//
//   C[i][j] = alpha · Σ_p A[i][p] · B'[p][j]  (+ C[i][j] when accumulate)
// with A row-major (m × k, row stride lda) and B' either B (k × n row-major, stride ldb: C = A·B)
// or Bᵀ for B n × k row-major (stride ldb: C = A·Bᵀ, each row of B one column of C).
//
// The fast kernels copy a panel of B' (up to kGemmF32KChunk values of k × one register tile of
// columns, zero-padded) to the stack and sweep all rows of A over it with a register tile of
// accumulators, so both forms run the same micro-kernel and any m, n, k works. Summation order
// differs from the reference (chunks of k, FMA), so results agree to float rounding, not bits.
//
// Declarations only: the *_avx2.cpp / *_avx512.cpp files include this header.

#include "kernels/kernel_context.h"

#include <cstdint>

namespace folio {

inline constexpr int64_t kGemmF32KChunk = 128;

struct GemmF32 {
    int64_t m = 0, n = 0, k = 0;
    const float* a = nullptr;
    int64_t lda = 0;
    const float* b = nullptr;
    int64_t ldb = 0;
    bool b_transposed = false; // true: C = A·Bᵀ with B n × k
    float* c = nullptr;
    int64_t ldc = 0;
    float alpha = 1.0f;
    bool accumulate = false; // C += ... instead of C = ...
};

using GemmF32Fn = void (*)(const GemmF32& g);

namespace ref {
void gemm_f32(const GemmF32& g);
} // namespace ref

namespace avx2 {
void gemm_f32(const GemmF32& g); // 6 × 16 register tile
} // namespace avx2

namespace avx512 {
void gemm_f32(const GemmF32& g); // 12 × 32 register tile
} // namespace avx512

// The kernel for `path`: the reference for Reference, AVX2 for Avx2 (when the CPU has it), and
// under Auto AVX-512 when avx512_vnni_kernels_available(), else AVX2, else the reference.
GemmF32Fn gemm_f32_kernel(KernelPath path);

// C = A·Bᵀ and C (+)= alpha·A·B with the kernel for `path` (shorthands for the callers).
void gemm_f32_abt(KernelPath path, int64_t m, int64_t n, int64_t k, const float* a, int64_t lda,
                  const float* b, int64_t ldb, float* c, int64_t ldc, bool accumulate = false);
void gemm_f32_ab(KernelPath path, int64_t m, int64_t n, int64_t k, const float* a, int64_t lda,
                 const float* b, int64_t ldb, float* c, int64_t ldc, bool accumulate = false,
                 float alpha = 1.0f);

} // namespace folio
