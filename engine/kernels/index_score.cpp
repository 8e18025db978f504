#include "kernels/index_score.h"

#include "kernels/kernel_table.h"
#include "kernels/weight_rows.h"
#include "tensor/fp16.h"
#include "tensor/quant_blocks.h"
#include "tensor/quantize.h"

#include <algorithm>
#include <cstring>

namespace folio {

IndexScoreFn index_score_kernel(KernelPath path, IndexKeyFormat format) {
#if defined(FOLIO_X86)
    if (path == KernelPath::Auto && format == IndexKeyFormat::Q8_0 &&
        avx512_vnni_kernels_available())
        return avx512::index_score_q8_0;
    if (path != KernelPath::Reference && avx2_kernels_available()) {
        switch (format) {
        case IndexKeyFormat::F32:
            return avx2::index_score_f32;
        case IndexKeyFormat::F16:
            return avx2::index_score_f16;
        case IndexKeyFormat::Q8_0:
            return avx2::index_score_q8_0;
        }
    }
#else
    (void)path;
#endif
    switch (format) {
    case IndexKeyFormat::F16:
        return ref::index_score_f16;
    case IndexKeyFormat::Q8_0:
        return ref::index_score_q8_0;
    default:
        return ref::index_score_f32;
    }
}

IndexQuery make_index_query(IndexKeyFormat format, const float* q, const float* w, int64_t H,
                            int64_t dim, IndexQueryBuffer& buf) {
    IndexQuery out;
    out.n_heads = H;
    out.sdim = index_stored_dim(format, dim);
    out.w = w;
    const int64_t D = out.sdim;
    if (format != IndexKeyFormat::Q8_0) {
        out.q = q; // no padding for float keys
        return out;
    }
    buf.q.assign(static_cast<size_t>(H * D), 0.0f);
    for (int64_t h = 0; h < H; ++h)
        std::copy(q + h * dim, q + (h + 1) * dim, buf.q.begin() + h * D);
    const int64_t nb = D / 32;
    std::vector<BlockQ8_0> blocks(static_cast<size_t>(H * nb));
    quantize_row_q8_0_act(buf.q.data(), blocks.data(), H * D);
    buf.q8.resize(static_cast<size_t>(H * D));
    buf.q8_d.resize(static_cast<size_t>(H * nb));
    buf.q8_sum.resize(static_cast<size_t>(H * nb));
    for (int64_t i = 0; i < H * nb; ++i) {
        std::memcpy(buf.q8.data() + i * 32, blocks[i].qs, 32);
        buf.q8_d[i] = fp16_to_fp32(blocks[i].d);
        int32_t sum = 0;
        for (int8_t v : blocks[i].qs)
            sum += v;
        buf.q8_sum[i] = sum;
    }
    out.q8 = buf.q8.data();
    out.q8_d = buf.q8_d.data();
    out.q8_sum = buf.q8_sum.data();
    return out;
}

void index_store_keys(IndexKeyFormat format, const float* rows, int64_t n, int64_t dim,
                      int64_t pos0, uint8_t* tiles) {
    const int64_t D = index_stored_dim(format, dim);
    const size_t tb = index_tile_bytes(format, D);
    std::vector<float> padded(static_cast<size_t>(D), 0.0f);
    std::vector<BlockQ8_0> blocks(static_cast<size_t>(D / 32 + 1));
    for (int64_t i = 0; i < n; ++i) {
        const int64_t pos = pos0 + i, lane = pos % kIndexTile;
        uint8_t* tile = tiles + static_cast<size_t>(pos / kIndexTile) * tb;
        const float* row = rows + i * dim;
        switch (format) {
        case IndexKeyFormat::F32:
            for (int64_t d = 0; d < D; ++d)
                std::memcpy(tile + (d * kIndexTile + lane) * 4, row + d, 4);
            break;
        case IndexKeyFormat::F16:
            for (int64_t d = 0; d < D; ++d) {
                const uint16_t h = fp32_to_fp16(row[d]);
                std::memcpy(tile + (d * kIndexTile + lane) * 2, &h, 2);
            }
            break;
        case IndexKeyFormat::Q8_0: {
            std::copy(row, row + dim, padded.begin());
            (void)quantize_row(DType::Q8_0, padded.data(), blocks.data(), D);
            for (int64_t d = 0; d < D; ++d)
                tile[((d / 4) * kIndexTile + lane) * 4 + d % 4] =
                    static_cast<uint8_t>(blocks[d / 32].qs[d % 32]);
            for (int64_t b = 0; b < D / 32; ++b)
                std::memcpy(tile + D * kIndexTile + (b * kIndexTile + lane) * 2, &blocks[b].d, 2);
            break;
        }
        }
    }
}

void index_load_key(IndexKeyFormat format, const uint8_t* tiles, int64_t pos, int64_t dim,
                    float* out) {
    const int64_t D = index_stored_dim(format, dim), lane = pos % kIndexTile;
    const uint8_t* tile =
        tiles + static_cast<size_t>(pos / kIndexTile) * index_tile_bytes(format, D);
    for (int64_t d = 0; d < dim; ++d) {
        switch (format) {
        case IndexKeyFormat::F32:
            std::memcpy(out + d, tile + (d * kIndexTile + lane) * 4, 4);
            break;
        case IndexKeyFormat::F16: {
            uint16_t h;
            std::memcpy(&h, tile + (d * kIndexTile + lane) * 2, 2);
            out[d] = fp16_to_fp32(h);
            break;
        }
        case IndexKeyFormat::Q8_0: {
            uint16_t h;
            std::memcpy(&h, tile + D * kIndexTile + ((d / 32) * kIndexTile + lane) * 2, 2);
            const auto v = static_cast<int8_t>(tile[((d / 4) * kIndexTile + lane) * 4 + d % 4]);
            out[d] = v * fp16_to_fp32(h);
            break;
        }
        }
    }
}

} // namespace folio
