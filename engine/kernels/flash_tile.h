#pragma once
// The softmax step of blocked (flash-style) attention over one tile of keys: prefill's causal
// multi-query attention (model/attention/attention_flash.h) multiplies a block of query rows by a
// tile of keys, then this step turns the raw scores into unnormalised probabilities and updates
// each row's running softmax state, the same (m, l) state the decode kernel keeps per head
// (kernels/mqa_rows.h MqaRowsState):
//   visible(r) = clamp(vis0 + r / rows_per_query, 0, nk)   (causal: keys past it are masked)
//   m' = max(m, max_{j < visible} scale·s_rj), f_r = exp(m − m'), l = f_r·l + Σ_j p_rj,
//   p_rj = exp(scale·s_rj − m') for j < visible(r), 0 after; s is overwritten by p, m by m'.
// Rows with visible(r) = 0 keep m and l, get f_r = 1 and p = 0. The caller then scales its
// output row by f_r and adds p·V.
//
// Declarations only: the *_avx2.cpp file includes this header.

#include "kernels/kernel_context.h"

#include <cstdint>

namespace folio {

struct FlashTile {
    float* s = nullptr; // rows × nk scores, row stride ld; becomes p
    int64_t rows = 0;
    int64_t nk = 0;
    int64_t ld = 0;
    int64_t vis0 = 0; // keys of the tile visible to row 0 (may be <= 0 or > nk)
    int64_t rows_per_query = 1;
    float scale = 1.0f;
    float* m = nullptr;       // [rows] running maximum (−inf when nothing seen yet)
    float* l = nullptr;       // [rows] running sum
    float* rescale = nullptr; // [rows] out: f_r
};

using FlashTileFn = void (*)(const FlashTile& t);

namespace ref {
void flash_tile(const FlashTile& t);
} // namespace ref

namespace avx2 {
void flash_tile(const FlashTile& t);
} // namespace avx2

// The kernel for `path` (AVX2 when asked for / Auto and available).
FlashTileFn flash_tile_kernel(KernelPath path);

} // namespace folio
