#pragma once
// The DSA lightning-indexer score kernel (DeepSeek-V3.2-Exp report; docs/KIMI_HYBRID.md):
//   out[s] = Σ_h w[h] · ReLU(q_h · k_s)
// over the cached index keys of one layer, for keys stored as f32, f16 or q8_0.
//
// Keys live in tiles of kIndexTile = 8 consecutive positions (tile t: keys 8t .. 8t+7), so the
// kernels run "vertically" (one SIMD lane per key) and never reduce horizontally:
//   F32   [dim][8] floats                      (value d of the 8 keys side by side)
//   F16   [dim][8] IEEE halves
//   Q8_0  the GGML q8_0 blocks of the 8 keys (32 int8 + fp16 scale, block_q8_0), rearranged:
//         first [dim/4][8][4] int8 (4 consecutive values of each key side by side), then
//         [dim/32][8] fp16 scales (block b of the 8 keys side by side). dim is a multiple of 32
//         (keys are zero-padded).
// Q8_0 keys are scored against queries quantized to int8 as well (quantize_row_q8_0_act: blocks
// of 32, scale amax/127 rounded to fp16): per key, head and block the int8 dot product is exact
// (int32), then scaled by d_key·d_query in float.
//
// Declarations only: the *_avx2.cpp file includes this header.

#include "kernels/kernel_context.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace folio {

inline constexpr int kIndexTile = 8;

enum class IndexKeyFormat { F32, F16, Q8_0 };

// Values stored per key: dim rounded up to a multiple of 32 for Q8_0.
static constexpr int64_t index_stored_dim(IndexKeyFormat f, int64_t dim) {
    return f == IndexKeyFormat::Q8_0 ? (dim + 31) / 32 * 32 : dim;
}

// Bytes of one tile of kIndexTile keys with `sdim` stored values each.
static constexpr size_t index_tile_bytes(IndexKeyFormat f, int64_t sdim) {
    const size_t d = static_cast<size_t>(sdim) * kIndexTile;
    switch (f) {
    case IndexKeyFormat::F32:
        return d * 4;
    case IndexKeyFormat::F16:
        return d * 2;
    case IndexKeyFormat::Q8_0:
        return d + d / 32 * 2;
    }
    return 0;
}

// One query as the kernels read it. sdim = index_stored_dim(format, dim).
struct IndexQuery {
    int64_t n_heads = 0;
    int64_t sdim = 0;
    const float* w = nullptr;        // [n_heads] head weights
    const float* q = nullptr;        // F32 / F16 keys: [n_heads][sdim] floats
    const int8_t* q8 = nullptr;      // Q8_0 keys: [n_heads][sdim] int8 values
    const float* q8_d = nullptr;     // Q8_0 keys: [n_heads][sdim / 32] block scales (fp16-exact)
    const int32_t* q8_sum = nullptr; // Q8_0 keys: [n_heads][sdim / 32] Σ of each block's int8s
};

// Scores all kIndexTile keys of n_tiles consecutive tiles: out[8·n_tiles].
using IndexScoreFn = void (*)(const IndexQuery& q, const uint8_t* tiles, int64_t n_tiles,
                              float* out);

namespace ref {
void index_score_f32(const IndexQuery& q, const uint8_t* tiles, int64_t n_tiles, float* out);
void index_score_f16(const IndexQuery& q, const uint8_t* tiles, int64_t n_tiles, float* out);
void index_score_q8_0(const IndexQuery& q, const uint8_t* tiles, int64_t n_tiles, float* out);
} // namespace ref

namespace avx2 {
void index_score_f32(const IndexQuery& q, const uint8_t* tiles, int64_t n_tiles, float* out);
void index_score_f16(const IndexQuery& q, const uint8_t* tiles, int64_t n_tiles, float* out);
void index_score_q8_0(const IndexQuery& q, const uint8_t* tiles, int64_t n_tiles, float* out);
} // namespace avx2

namespace avx512 {
// Q8_0 with vpdpbusd (AVX-512 VNNI on 256-bit registers); equal to avx2::index_score_q8_0 bit
// for bit.
void index_score_q8_0(const IndexQuery& q, const uint8_t* tiles, int64_t n_tiles, float* out);
} // namespace avx512

// The kernel for `format` on `path`: AVX2 when asked for / Auto and available; under Auto the
// AVX-512 VNNI one for Q8_0 when the CPU has it (avx512_vnni_kernels_available()).
IndexScoreFn index_score_kernel(KernelPath path, IndexKeyFormat format);

// Owns the padded / quantized copy of one query.
struct IndexQueryBuffer {
    std::vector<float> q, q8_d;
    std::vector<int8_t> q8;
    std::vector<int32_t> q8_sum;
};

// Builds the query of H heads of `dim` floats (q: [H][dim], w: [H]) for keys of `format`.
// The returned query points into `buf` and `w`.
IndexQuery make_index_query(IndexKeyFormat format, const float* q, const float* w, int64_t H,
                            int64_t dim, IndexQueryBuffer& buf);

// Writes keys rows[n][dim] (f32) into the tiles at positions pos0 .. pos0+n-1 (the tiles must
// exist; tiles points at tile 0 of the layer).
void index_store_keys(IndexKeyFormat format, const float* rows, int64_t n, int64_t dim,
                      int64_t pos0, uint8_t* tiles);

// Reads key `pos` back as floats (dequantized; dim values).
void index_load_key(IndexKeyFormat format, const uint8_t* tiles, int64_t pos, int64_t dim,
                    float* out);

} // namespace folio
