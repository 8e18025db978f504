#pragma once
// The loop nest shared by the fast f32 GEMMs (kernels/gemm_f32.h), around a register-tile
// micro-kernel Tile that each *_avx2.cpp / *_avx512.cpp file defines in its anonymous namespace
// (so every instantiation here is private to the file compiled with that instruction set):
//   Tile::MR, Tile::NR            rows × columns of one register tile
//   Tile::tile<R>(a, lda, panel, kc, c, ldc, nr, alpha, acc)
//       for R <= MR rows of A (a: the first of kc values of row 0) against a packed panel of kc
//       rows × NR floats (64-byte aligned): C[r][0..nr) = alpha·Σ + (acc ? C : 0).
// For each tile of NR columns and chunk of at most kGemmF32KChunk values of k, the panel of B' is
// copied to the stack (contiguous, zero past n), then all rows of A are swept over it.

#include "kernels/gemm_f32.h"

#include <algorithm>
#include <cstring>

namespace folio::gemm_f32_detail {

template <class Tile>
void pack_panel(const GemmF32& g, int64_t j0, int nr, int64_t p0, int64_t kc, float* panel) {
    constexpr int NR = Tile::NR;
    if (g.b_transposed) {
        // Column j of B' is row j of B: read it along k, write it down the panel.
        for (int j = 0; j < nr; ++j) {
            const float* src = g.b + (j0 + j) * g.ldb + p0;
            for (int64_t p = 0; p < kc; ++p)
                panel[p * NR + j] = src[p];
        }
    } else {
        for (int64_t p = 0; p < kc; ++p)
            std::memcpy(panel + p * NR, g.b + (p0 + p) * g.ldb + j0,
                        static_cast<size_t>(nr) * sizeof(float));
    }
    if (nr < NR)
        for (int64_t p = 0; p < kc; ++p)
            std::fill(panel + p * NR + nr, panel + (p + 1) * NR, 0.0f);
}

// The last m mod MR rows: one instantiation per count, chosen at run time.
template <class Tile, int R = Tile::MR - 1>
void tail_rows(int rows, const float* a, int64_t lda, const float* panel, int64_t kc, float* c,
               int64_t ldc, int nr, float alpha, bool acc) {
    if constexpr (R >= 1) {
        if (rows == R)
            Tile::template tile<R>(a, lda, panel, kc, c, ldc, nr, alpha, acc);
        else
            tail_rows<Tile, R - 1>(rows, a, lda, panel, kc, c, ldc, nr, alpha, acc);
    }
}

template <class Tile> void gemm_blocked(const GemmF32& g) {
    constexpr int MR = Tile::MR, NR = Tile::NR;
    if (g.m <= 0 || g.n <= 0)
        return;
    if (g.k <= 0) { // an empty sum: C = 0 or C unchanged
        for (int64_t i = 0; i < g.m && !g.accumulate; ++i)
            std::fill(g.c + i * g.ldc, g.c + i * g.ldc + g.n, 0.0f);
        return;
    }
    alignas(64) float panel[kGemmF32KChunk * NR];
    // Chunks of equal length, so a k just past the chunk size leaves no tiny chunk.
    const int64_t n_chunks = (g.k + kGemmF32KChunk - 1) / kGemmF32KChunk;
    const int64_t kc_max = (g.k + n_chunks - 1) / n_chunks;
    for (int64_t j0 = 0; j0 < g.n; j0 += NR) {
        const int nr = static_cast<int>(std::min<int64_t>(NR, g.n - j0));
        for (int64_t p0 = 0; p0 < g.k; p0 += kc_max) {
            const int64_t kc = std::min(kc_max, g.k - p0);
            pack_panel<Tile>(g, j0, nr, p0, kc, panel);
            const bool acc = g.accumulate || p0 > 0;
            int64_t i = 0;
            for (; i + MR <= g.m; i += MR)
                Tile::template tile<MR>(g.a + i * g.lda + p0, g.lda, panel, kc,
                                        g.c + i * g.ldc + j0, g.ldc, nr, g.alpha, acc);
            if (i < g.m)
                tail_rows<Tile>(static_cast<int>(g.m - i), g.a + i * g.lda + p0, g.lda, panel, kc,
                                g.c + i * g.ldc + j0, g.ldc, nr, g.alpha, acc);
        }
    }
}

} // namespace folio::gemm_f32_detail
