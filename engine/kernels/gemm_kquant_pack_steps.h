#pragma once
// Internal to the SIMD K-quant packers (gemm_kquant_pack_avx2.cpp, gemm_kquant_pack_avx512.cpp):
// the steps they share around their vector unpacking, in the layout of kernels/gemm_kquant.h.
// Internal linkage only (include from *_avx2.cpp / *_avx512.cpp files alone: no AVX-compiled
// inline symbol may be merged into generic code).

#include "kernels/gemm_kquant.h"
#include "tensor/quant_blocks.h"
#include "tensor/quant_blocks_more.h"

#include <immintrin.h>

#include <cstddef>
#include <cstdint>

namespace folio::kquant_pack {

namespace {

// The fields of a Q4_K (five_bits false; qh null) or Q5_K super-block.
struct Q4Q5Fields {
    const uint8_t *qs, *scales, *qh;
    uint16_t d, dmin;
};
inline Q4Q5Fields q4_q5_fields(const uint8_t* block, bool five_bits) {
    if (five_bits) {
        const auto* b = reinterpret_cast<const BlockQ5K*>(block);
        return {b->qs, b->scales, b->qh, b->d, b->dmin};
    }
    const auto* b = reinterpret_cast<const BlockQ4K*>(block);
    return {b->qs, b->scales, nullptr, b->d, b->dmin};
}

// Q4_K / Q5_K scales of row lane r into the quad's super-block at dst: dsc_j = d·sc_j,
// dmn_j = dmin·m_j at [16·(j/4) + 4r + j%4].
inline void scales_q4_q5(const uint8_t* scales, float d, float dmin, int r, uint8_t* dst) {
    auto* dsc = reinterpret_cast<float*>(dst + 1024);
    auto* dmn = dsc + 32;
    for (int j = 0; j < 8; ++j) {
        uint8_t sc, m;
        q4k_scale_min(j, scales, &sc, &m);
        dsc[16 * (j / 4) + 4 * r + j % 4] = d * static_cast<float>(sc);
        dmn[16 * (j / 4) + 4 * r + j % 4] = dmin * static_cast<float>(m);
    }
}

// Q6_K scales of row lane r: dsc_j = d·sc_j (16 sub-blocks of 16).
inline void scales_q6(const int8_t* scales, float d, int r, uint8_t* dst) {
    auto* dsc = reinterpret_cast<float*>(dst + 1024);
    for (int j = 0; j < 16; ++j)
        dsc[16 * (j / 4) + 4 * r + j % 4] = d * static_cast<float>(scales[j]);
}

// The chunk's rows one by one, each row's super-blocks in order: a chunk's rows are adjacent in
// the weight, so the reads are one sequential stream the hardware prefetcher follows (MoE expert
// rows are only ~1 KiB long, too short for it to catch 4 interleaved row streams).
// pack_block(block, r, sb_dst) writes row lane r of a quad's super-block; padding rows get zero
// weights and scales in their lanes.
template <typename PackBlock>
inline void pack_rows(DType type, const uint8_t* const rows[kGemmRows], int64_t k, uint8_t* dst,
                      PackBlock pack_block) {
    // 1024 bytes of quants + 256 of scales (and 256 of mins for Q2_K's 16 sub-blocks).
    const size_t sb_bytes = kquant_type_sb_bytes(type);
    const size_t block_bytes = dtype_traits(type).block_bytes;
    const int64_t nsb = k / 256;
    for (int r16 = 0; r16 < kGemmRows; ++r16) {
        const int quad = r16 / 4, r = r16 % 4;
        const uint8_t* row = rows[r16];
        uint8_t* q_dst = dst + static_cast<size_t>(quad * nsb) * sb_bytes;
        for (int64_t s = 0; s < nsb; ++s) {
            uint8_t* sb_dst = q_dst + s * sb_bytes;
            if (!row) {
                for (size_t c = 0; c < sb_bytes; c += 64)
                    _mm_storeu_si128(reinterpret_cast<__m128i*>(sb_dst + c + 16 * r),
                                     _mm_setzero_si128());
                continue;
            }
            const uint8_t* block = row + s * block_bytes;
            _mm_prefetch(reinterpret_cast<const char*>(block) + 1024, _MM_HINT_T0);
            _mm_prefetch(reinterpret_cast<const char*>(block) + 1088, _MM_HINT_T0);
            _mm_prefetch(reinterpret_cast<const char*>(block) + 1152, _MM_HINT_T0);
            pack_block(block, r, sb_dst);
        }
    }
}

} // namespace

} // namespace folio::kquant_pack
