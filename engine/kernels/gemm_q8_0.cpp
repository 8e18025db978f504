#include "kernels/gemm_q8_0.h"

#include "kernels/kernel_table.h"
#include "kernels/matmul.h"
#include "tensor/quant_blocks.h"
#include "tensor/quant_blocks_more.h"

#include <cstring>

namespace folio {

namespace {

// The other 32-element types with one fp16 scale whose values are int8 (ggml-common.h
// block_q4_0, block_q5_0, block_iq4_nl): block b of a row as the
// BlockQ8_0 with the same d and values, exactly.
void q4_0_as_q8_0(const uint8_t* row, int64_t b, BlockQ8_0* out) {
    const auto& blk = reinterpret_cast<const BlockQ4_0*>(row)[b];
    out->d = blk.d;
    for (int j = 0; j < 16; ++j) {
        out->qs[j] = static_cast<int8_t>((blk.qs[j] & 0xF) - 8);
        out->qs[j + 16] = static_cast<int8_t>((blk.qs[j] >> 4) - 8);
    }
}

void q5_0_as_q8_0(const uint8_t* row, int64_t b, BlockQ8_0* out) {
    const auto& blk = reinterpret_cast<const BlockQ5_0*>(row)[b];
    uint32_t qh;
    std::memcpy(&qh, blk.qh, 4); // little-endian: bit j is the fifth bit of element j
    out->d = blk.d;
    for (int j = 0; j < 16; ++j) {
        out->qs[j] = static_cast<int8_t>(((blk.qs[j] & 0xF) | (((qh >> j) & 1) << 4)) - 16);
        out->qs[j + 16] =
            static_cast<int8_t>(((blk.qs[j] >> 4) | (((qh >> (j + 16)) & 1) << 4)) - 16);
    }
}

void iq4_nl_as_q8_0(const uint8_t* row, int64_t b, BlockQ8_0* out) {
    const auto& blk = reinterpret_cast<const BlockIQ4NL*>(row)[b];
    out->d = blk.d;
    for (int j = 0; j < 16; ++j) {
        out->qs[j] = kIq4nlValues[blk.qs[j] & 0xF];
        out->qs[j + 16] = kIq4nlValues[blk.qs[j] >> 4];
    }
}

// MXFP4 (ggml-common.h block_mxfp4): the values are kMxfp4Values (int8), the scale 2^(e-128), which
// fp16 cannot hold for every e. Its d slot carries the scale as bf16 bits instead, exact for every
// e (bf16 has fp32's exponent range): gemm_q8_0 runs the kernel that reads bf16 scales.
void mxfp4_as_q8_0(const uint8_t* row, int64_t b, BlockQ8_0* out) {
    const auto& blk = reinterpret_cast<const BlockMxfp4*>(row)[b];
    out->d = e8m0_half_as_bf16(blk.e);
    for (int j = 0; j < 16; ++j) {
        out->qs[j] = kMxfp4Values[blk.qs[j] & 0xF];
        out->qs[j + 16] = kMxfp4Values[blk.qs[j] >> 4];
    }
}

void q8_0_block(const uint8_t* row, int64_t b, BlockQ8_0* out) {
    std::memcpy(out, row + b * sizeof(BlockQ8_0), sizeof(BlockQ8_0));
}

using AsQ8_0Fn = void (*)(const uint8_t*, int64_t, BlockQ8_0*);

AsQ8_0Fn as_q8_0(DType type) {
    switch (type) {
    case DType::Q8_0:
        return q8_0_block;
    case DType::Q4_0:
        return q4_0_as_q8_0;
    case DType::Q5_0:
        return q5_0_as_q8_0;
    case DType::IQ4_NL:
        return iq4_nl_as_q8_0;
    case DType::MXFP4:
        return mxfp4_as_q8_0;
    default:
        return nullptr;
    }
}

} // namespace

bool gemm_q8_0_available(KernelPath path) {
    return path == KernelPath::Auto &&
           (avx512_vnni_kernels_available() || avx2_kernels_available());
}

GemmBlockAsQ8_0Fn gemm_block_as_q8_0(DType type) {
    return type == DType::Q8_0 ? nullptr : as_q8_0(type);
}

bool gemm_q8_0_weight_type(DType type) {
    return as_q8_0(type) != nullptr;
}

bool gemm_q8_0_bf16_scales(DType type) {
    return type == DType::MXFP4;
}

// Both packers move whole 4-byte groups (the vpdpbusd lane unit) with memcpy, which compilers turn
// into plain 32-bit loads and stores.
void gemm_pack_q8_0_weights(const TensorView& w, int64_t n0, uint8_t* dst) {
    const int64_t nb = w.ne[0] / kQK8_0, n = w.ne[1], ng = gemm_groups(w.ne[0]);
    const AsQ8_0Fn block_of = as_q8_0(w.type);
    for (int64_t quad = 0; quad < kGemmRows / 4; ++quad)
        for (int64_t g = 0; g < ng; ++g, dst += kGemmWeightGroupBytes) {
            auto* scales = dst + 8 * 64;
            for (int r = 0; r < 4; ++r) {
                const int64_t row = n0 + 4 * quad + r;
                const uint8_t* blocks = row < n ? w.row(row) : nullptr;
                for (int i = 0; i < 4; ++i) {
                    const int64_t b = 4 * g + i;
                    uint8_t* lane = dst + 16 * r + 4 * i;
                    if (!blocks || b >= nb) {
                        for (int q = 0; q < 8; ++q)
                            std::memset(lane + 64 * q, 128, 4); // weight 0
                        std::memset(scales + 2 * (4 * r + i), 0, 2);
                        continue;
                    }
                    BlockQ8_0 blk;
                    block_of(blocks, b, &blk);
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

#if defined(FOLIO_X86)
namespace {

// GemmKernel's packer signatures over the AVX-512 packers.
void pack_weights_avx512(const TensorView& w, int64_t n0, uint8_t* dst) {
    const uint8_t* rows[kGemmRows];
    for (int64_t r = 0; r < kGemmRows; ++r)
        rows[r] = n0 + r < w.ne[1] ? w.row(n0 + r) : nullptr;
    avx512::gemm_pack_q8_0_weights(w.type, rows, w.ne[0], dst);
}

void pack_activations_avx512(const uint8_t* act_row, int64_t k, uint8_t* dst) {
    const auto* scales =
        act_row ? reinterpret_cast<const float*>(act_row + q8_0_act_layout(k).scales) : nullptr;
    avx512::gemm_pack_q8_0_activations(act_row, scales, k, dst);
}

void pack_weights_avx2(const TensorView& w, int64_t n0, uint8_t* dst) {
    const uint8_t* rows[kGemmRows];
    for (int64_t r = 0; r < kGemmRows; ++r)
        rows[r] = n0 + r < w.ne[1] ? w.row(n0 + r) : nullptr;
    avx2::gemm_pack_q8_0_weights(w.type, rows, w.ne[0], dst);
}

} // namespace
#endif

void gemm_q8_0_avx2(const KernelContext& ctx, const TensorView& w, const QuantizedActivations& x,
                    float* y, int64_t y_stride) {
    const int64_t ng = gemm_groups(w.ne[0]);
    GemmKernel kernel{static_cast<size_t>(ng) * kGemmActGroupBytes,
                      static_cast<size_t>(kGemmRows / 2 * ng) * kGemmAvx2WeightGroupBytes, nullptr,
                      gemm_pack_q8_0_activations, nullptr};
#if defined(FOLIO_X86)
    kernel.pack_weights = pack_weights_avx2;
    kernel.chunk = avx2::gemm_q8_0_chunk;
#endif // else gemm_q8_0_available() is false: never reached
    run_gemm(ctx, kernel, w, x, y, y_stride);
}

void gemm_q8_0(const KernelContext& ctx, const TensorView& w, const QuantizedActivations& x,
               float* y, int64_t y_stride) {
    if (!avx512_vnni_kernels_available()) {
        gemm_q8_0_avx2(ctx, w, x, y, y_stride);
        return;
    }
    const int64_t ng = gemm_groups(w.ne[0]);
    GemmKernel kernel{static_cast<size_t>(ng) * kGemmActGroupBytes,
                      static_cast<size_t>(4 * ng) * kGemmWeightGroupBytes, gemm_pack_q8_0_weights,
                      gemm_pack_q8_0_activations, nullptr};
#if defined(FOLIO_X86)
    kernel.pack_weights = pack_weights_avx512;
    kernel.pack_activations = pack_activations_avx512;
    kernel.chunk = gemm_q8_0_bf16_scales(w.type) ? avx512::gemm_q8_0_chunk_bf16_scales
                                                 : avx512::gemm_q8_0_chunk;
#endif // else gemm_q8_0_available() is false: never reached
    run_gemm(ctx, kernel, w, x, y, y_stride);
}

} // namespace folio
