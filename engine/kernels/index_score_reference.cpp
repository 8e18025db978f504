// Scalar reference of the DSA index score kernels (kernels/index_score.h): one key at a time,
// the dot products in dimension order, Q8_0 with exact int32 block sums. The AVX2 kernels do the
// same operations in the same order (with fused multiply-adds), so both agree to float rounding.
#include "kernels/index_score.h"
#include "tensor/fp16.h"

#include <algorithm>

namespace folio::ref {

namespace {

template <typename Load>
void score_float_tiles(const IndexQuery& q, const uint8_t* tiles, int64_t n_tiles, float* out,
                       size_t elem, Load load) {
    const int64_t D = q.sdim;
    for (int64_t t = 0; t < n_tiles; ++t) {
        const uint8_t* tile = tiles + static_cast<size_t>(t) * D * kIndexTile * elem;
        for (int lane = 0; lane < kIndexTile; ++lane) {
            float score = 0.0f;
            for (int64_t h = 0; h < q.n_heads; ++h) {
                const float* qh = q.q + h * D;
                float acc = 0.0f;
                for (int64_t d = 0; d < D; ++d)
                    acc += qh[d] * load(tile + (d * kIndexTile + lane) * elem);
                score += q.w[h] * std::max(acc, 0.0f);
            }
            out[t * kIndexTile + lane] = score;
        }
    }
}

} // namespace

void index_score_f32(const IndexQuery& q, const uint8_t* tiles, int64_t n_tiles, float* out) {
    score_float_tiles(q, tiles, n_tiles, out, 4, [](const uint8_t* p) {
        float v;
        std::memcpy(&v, p, 4);
        return v;
    });
}

void index_score_f16(const IndexQuery& q, const uint8_t* tiles, int64_t n_tiles, float* out) {
    score_float_tiles(q, tiles, n_tiles, out, 2, [](const uint8_t* p) {
        uint16_t h;
        std::memcpy(&h, p, 2);
        return fp16_to_fp32(h);
    });
}

void index_score_q8_0(const IndexQuery& q, const uint8_t* tiles, int64_t n_tiles, float* out) {
    const int64_t D = q.sdim, nb = D / 32;
    const size_t tile_bytes = index_tile_bytes(IndexKeyFormat::Q8_0, D);
    for (int64_t t = 0; t < n_tiles; ++t) {
        const uint8_t* tile = tiles + static_cast<size_t>(t) * tile_bytes;
        const auto* qs = reinterpret_cast<const int8_t*>(tile);
        const uint8_t* scales = tile + D * kIndexTile;
        for (int lane = 0; lane < kIndexTile; ++lane) {
            float score = 0.0f;
            for (int64_t h = 0; h < q.n_heads; ++h) {
                float acc = 0.0f;
                for (int64_t b = 0; b < nb; ++b) {
                    int32_t isum = 0;
                    for (int64_t d = b * 32; d < b * 32 + 32; ++d)
                        isum += int32_t(qs[((d / 4) * kIndexTile + lane) * 4 + d % 4]) *
                                int32_t(q.q8[h * D + d]);
                    uint16_t dk;
                    std::memcpy(&dk, scales + (b * kIndexTile + lane) * 2, 2);
                    acc += static_cast<float>(isum) * (fp16_to_fp32(dk) * q.q8_d[h * nb + b]);
                }
                score += q.w[h] * std::max(acc, 0.0f);
            }
            out[t * kIndexTile + lane] = score;
        }
    }
}

} // namespace folio::ref
