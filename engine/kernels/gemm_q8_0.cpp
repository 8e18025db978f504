#include "kernels/gemm_q8_0.h"

#include "kernels/kernel_table.h"
#include "kernels/matmul.h"
#include "tensor/quant_blocks.h"

#include <algorithm>
#include <cstring>
#include <memory>

namespace folio {

namespace {

// Token blocks of the schedule: one packed weight chunk (kGemmRows rows) stays in L2 while the
// token blocks stream past it; the static schedule hands each thread a contiguous run of
// (chunk, token block) tiles, chunk-major, so each thread packs each of its chunks once.
constexpr int64_t kGemmTokenBlock = 64;

} // namespace

bool gemm_q8_0_available(KernelPath path) {
    return path == KernelPath::Auto && avx512_vnni_kernels_available();
}

// Both packers move whole 4-byte groups (the vpdpbusd lane unit) with memcpy, which compilers turn
// into plain 32-bit loads and stores.
void gemm_pack_q8_0_weights(const TensorView& w, int64_t n0, uint8_t* dst) {
    const int64_t nb = w.ne[0] / kQK8_0, n = w.ne[1], ng = gemm_groups(w.ne[0]);
    for (int64_t quad = 0; quad < kGemmRows / 4; ++quad)
        for (int64_t g = 0; g < ng; ++g, dst += kGemmWeightGroupBytes) {
            auto* scales = dst + 8 * 64;
            for (int r = 0; r < 4; ++r) {
                const int64_t row = n0 + 4 * quad + r;
                const auto* blocks =
                    row < n ? reinterpret_cast<const BlockQ8_0*>(w.row(row)) : nullptr;
                for (int i = 0; i < 4; ++i) {
                    const int64_t b = 4 * g + i;
                    uint8_t* lane = dst + 16 * r + 4 * i;
                    if (!blocks || b >= nb) {
                        for (int q = 0; q < 8; ++q)
                            std::memset(lane + 64 * q, 128, 4); // weight 0
                        std::memset(scales + 2 * (4 * r + i), 0, 2);
                        continue;
                    }
                    const BlockQ8_0& blk = blocks[b];
                    std::memcpy(scales + 2 * (4 * r + i), &blk.d, 2);
                    for (int q = 0; q < 8; ++q) {
                        uint32_t v;
                        std::memcpy(&v, blk.qs + 4 * q, 4);
                        v ^= 0x80808080u; // + 128 in every byte
                        std::memcpy(lane + 64 * q, &v, 4);
                    }
                }
            }
        }
}

void gemm_pack_q8_0_activations(const uint8_t* act_row, int64_t k, uint8_t* dst) {
    const int64_t nb = k / kQK8_0, ng = gemm_groups(k);
    const auto* blocks = reinterpret_cast<const BlockQ8_0*>(act_row);
    const auto* scales =
        act_row ? reinterpret_cast<const float*>(act_row + q8_0_act_layout(k).scales) : nullptr;
    for (int64_t g = 0; g < ng; ++g, dst += kGemmActGroupBytes) {
        int32_t corr[4];
        float dx[4];
        for (int i = 0; i < 4; ++i) {
            const int64_t b = 4 * g + i;
            if (!act_row || b >= nb) {
                for (int q = 0; q < 8; ++q)
                    std::memset(dst + 16 * q + 4 * i, 0, 4);
                corr[i] = 0;
                dx[i] = 0.0f;
                continue;
            }
            const BlockQ8_0& blk = blocks[b];
            int32_t sum = 0;
            for (int8_t v : blk.qs)
                sum += v;
            for (int q = 0; q < 8; ++q)
                std::memcpy(dst + 16 * q + 4 * i, blk.qs + 4 * q, 4);
            corr[i] = -128 * sum;
            dx[i] = scales[b];
        }
        std::memcpy(dst + 128, corr, sizeof corr);
        std::memcpy(dst + 144, dx, sizeof dx);
    }
}

void gemm_q8_0(const KernelContext& ctx, const TensorView& w, const QuantizedActivations& x,
               float* y, int64_t y_stride) {
    const int64_t k = w.ne[0], n = w.ne[1], t_count = x.n_rows, ng = gemm_groups(k);
    const int64_t t_padded = (t_count + kGemmTokenPad - 1) / kGemmTokenPad * kGemmTokenPad;
    const size_t x_stride = static_cast<size_t>(ng) * kGemmActGroupBytes;
    const size_t w_chunk_bytes = static_cast<size_t>(4 * ng) * kGemmWeightGroupBytes;
    // Every byte is written by the packers, so the buffers need no initialisation.
    std::unique_ptr<uint8_t[]> xp(new uint8_t[x_stride * static_cast<size_t>(t_padded)]);
    const int pack_threads =
        static_cast<int>(std::max<int64_t>(1, std::min<int64_t>(ctx.n_threads, t_padded / 8)));
#pragma omp parallel for num_threads(pack_threads) schedule(static) if (pack_threads > 1)
    for (int64_t t = 0; t < t_padded; ++t)
        gemm_pack_q8_0_activations(t < t_count ? x.row(t) : nullptr, k, xp.get() + t * x_stride);

    const int64_t n_chunks = (n + kGemmRows - 1) / kGemmRows;
    const int64_t n_tblocks = (t_count + kGemmTokenBlock - 1) / kGemmTokenBlock;
    const int64_t n_tiles = n_chunks * n_tblocks;
    const int threads =
        static_cast<int>(std::max<int64_t>(1, std::min<int64_t>(ctx.n_threads, n_tiles)));
#pragma omp parallel num_threads(threads) if (threads > 1)
    {
        std::unique_ptr<uint8_t[]> wp(new uint8_t[w_chunk_bytes]);
        int64_t packed_chunk = -1;
#pragma omp for schedule(static)
        for (int64_t tile = 0; tile < n_tiles; ++tile) {
            const int64_t c = tile / n_tblocks, tb = tile % n_tblocks;
            if (c != packed_chunk) {
                gemm_pack_q8_0_weights(w, c * kGemmRows, wp.get());
                packed_chunk = c;
            }
            const int64_t n0 = c * kGemmRows, t0 = tb * kGemmTokenBlock;
            const int64_t nt = std::min(kGemmTokenBlock, t_count - t0);
#if defined(FOLIO_X86)
            avx512::gemm_q8_0_chunk(k, wp.get(), std::min(kGemmRows, n - n0),
                                    xp.get() + t0 * x_stride, x_stride, nt, y + t0 * y_stride + n0,
                                    y_stride);
#else
            (void)nt; // gemm_q8_0_available() is false: never reached
#endif
        }
    }
}

} // namespace folio
