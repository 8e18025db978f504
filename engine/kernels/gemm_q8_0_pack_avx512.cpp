// AVX-512 packers of the Q8_0 GEMM (the layouts of kernels/gemm_q8_0.h, the same bytes as the
// scalar gemm_pack_q8_0_weights / gemm_pack_q8_0_activations; tested). One template per weight
// type, so the block decode (a copy for Q8_0, a nibble split, the Q5_0 fifth bit from a mask
// register, the IQ4_NL and MXFP4 tables in one vpshufb) is inlined, and the (block, step) -> (step,
// block) transpose of 4-byte lanes is one permute per 2 steps instead of 4-byte copies. In MoE
// prefill each expert's chunk is packed for only the ~T·k/E tokens routed to it, so the packing has
// to be cheap next to the multiply.
//
// Compiled with AVX-512 F/VL/BW/VNNI (engine/CMakeLists.txt), entered only when
// gemm_q8_0_available(). No inline functions from shared headers (see gemm_q8_0_avx512.cpp).
#include "kernels/gemm_q8_0.h"

#include "tensor/quant_blocks.h"
#include "tensor/quant_blocks_more.h"

#include <cstring>

// GCC 12's AVX-512 intrinsics start from _mm512_undefined_*(), which its own -Wuninitialized
// flags once inlined (as in gemm_q8_0_avx512.cpp).
#include "kernels/avx512_intrinsics.h"

namespace folio::avx512 {

namespace {

// The 32 int8 values of block `blk` (a pointer to its first byte) in element order, per type.
template <DType T> __m256i block_values(const uint8_t* blk);

template <> inline __m256i block_values<DType::Q8_0>(const uint8_t* blk) {
    return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(blk + offsetof(BlockQ8_0, qs)));
}

// Low nibbles are elements 0..15, high nibbles 16..31 (ggml-common.h block_q4_0 and the like).
inline __m256i nibbles(const uint8_t* qs) {
    const __m128i q = _mm_loadu_si128(reinterpret_cast<const __m128i*>(qs));
    const __m128i m4 = _mm_set1_epi8(0x0F);
    return _mm256_set_m128i(_mm_and_si128(_mm_srli_epi16(q, 4), m4), _mm_and_si128(q, m4));
}

template <> inline __m256i block_values<DType::Q4_0>(const uint8_t* blk) {
    return _mm256_sub_epi8(nibbles(blk + offsetof(BlockQ4_0, qs)), _mm256_set1_epi8(8));
}

template <> inline __m256i block_values<DType::Q5_0>(const uint8_t* blk) {
    uint32_t qh; // bit j is the fifth bit of element j
    std::memcpy(&qh, blk + offsetof(BlockQ5_0, qh), 4);
    const __m256i n = nibbles(blk + offsetof(BlockQ5_0, qs));
    const __m256i v = _mm256_mask_add_epi8(n, static_cast<__mmask32>(qh), n, _mm256_set1_epi8(16));
    return _mm256_sub_epi8(v, _mm256_set1_epi8(16));
}

template <> inline __m256i block_values<DType::IQ4_NL>(const uint8_t* blk) {
    const __m256i table = _mm256_broadcastsi128_si256(
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(kIq4nlValues)));
    return _mm256_shuffle_epi8(table, nibbles(blk + offsetof(BlockIQ4NL, qs)));
}

template <> inline __m256i block_values<DType::MXFP4>(const uint8_t* blk) {
    const __m256i table = _mm256_broadcastsi128_si256(
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(kMxfp4Values)));
    return _mm256_shuffle_epi8(table, nibbles(blk + offsetof(BlockMxfp4, qs)));
}

// The 2 bytes of a block's packed scale: its fp16 d (the block's first 2 bytes), or for MXFP4
// 2^(e-128) as bf16 (kernels/gemm_q8_0.h).
template <DType T> inline void store_scale(uint8_t* dst, const uint8_t* blk) {
    if constexpr (T == DType::MXFP4) {
        const uint16_t d = e8m0_half_as_bf16(blk[offsetof(BlockMxfp4, e)]);
        std::memcpy(dst, &d, 2);
    } else
        std::memcpy(dst, blk, 2);
}

// Stores the 4 × 16 bytes of v at dst, dst + step, dst + 2·step, dst + 3·step.
inline void store_steps4(uint8_t* dst, size_t step, __m512i v) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst), _mm512_castsi512_si128(v));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + step), _mm512_extracti32x4_epi32(v, 1));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + 2 * step), _mm512_extracti32x4_epi32(v, 2));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + 3 * step), _mm512_extracti32x4_epi32(v, 3));
}

// a = blocks 0, 1 and b = blocks 2, 3 of a group (32 bytes each, in element order) -> the 8
// steps q of 4 lanes i (dword q of block i), 16 bytes each, `step` bytes apart from dst.
inline void store_group(uint8_t* dst, size_t step, __m512i a, __m512i b) {
    // Output dword 4q' + i = block i's dword q (q = q' for the first 4 steps, q' + 4 after);
    // blocks 0, 1 are dwords 0..7, 8..15 of a, blocks 2, 3 the same of b (index + 16).
    const __m512i lo = _mm512_setr_epi32(0, 8, 16, 24, 1, 9, 17, 25, 2, 10, 18, 26, 3, 11, 19, 27);
    const __m512i hi = _mm512_add_epi32(lo, _mm512_set1_epi32(4));
    store_steps4(dst, step, _mm512_permutex2var_epi32(a, lo, b));
    store_steps4(dst + 4 * step, step, _mm512_permutex2var_epi32(a, hi, b));
}

inline __m512i join(__m256i lo, __m256i hi) {
    return _mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1);
}

template <DType T, size_t BlockBytes>
void pack_weights(const uint8_t* const rows[kGemmRows], int64_t k, uint8_t* dst) {
    const int64_t nb = k / 32, ng = (nb + 3) / 4, full = nb / 4;
    const size_t quad_bytes = static_cast<size_t>(ng) * kGemmWeightGroupBytes;
    const __m512i flip = _mm512_set1_epi8(static_cast<char>(0x80)); // + 128: unsigned for vpdpbusd
    // Row by row, each row's blocks in order: one sequential read stream (see
    // gemm_kquant_pack_avx512.cpp).
    for (int r16 = 0; r16 < kGemmRows; ++r16) {
        const int r = r16 % 4;
        const uint8_t* row = rows[r16];
        uint8_t* const quad = dst + static_cast<size_t>(r16 / 4) * quad_bytes;
        uint8_t* const q_dst = quad + 16 * r;              // this row's lanes of step 0, group 0
        uint8_t* const scales = quad + 8 * 64 + 2 * 4 * r; // its 4 fp16 of group 0
        int64_t g = 0;
        if (row)
            for (; g < full; ++g) {
                const uint8_t* blk = row + static_cast<size_t>(4 * g) * BlockBytes;
                const __m512i a = join(block_values<T>(blk), block_values<T>(blk + BlockBytes));
                const __m512i b = join(block_values<T>(blk + 2 * BlockBytes),
                                       block_values<T>(blk + 3 * BlockBytes));
                store_group(q_dst + g * kGemmWeightGroupBytes, 64, _mm512_xor_si512(a, flip),
                            _mm512_xor_si512(b, flip));
                uint8_t* s = scales + g * kGemmWeightGroupBytes;
                for (int i = 0; i < 4; ++i)
                    store_scale<T>(s + 2 * i, blk + i * BlockBytes);
            }
        // The last, partial group (blocks past nb are zero: weight 128, d 0) and padding rows.
        for (; g < ng; ++g) {
            __m256i v[4];
            uint8_t* s = scales + g * kGemmWeightGroupBytes;
            for (int i = 0; i < 4; ++i) {
                const int64_t b = 4 * g + i;
                const uint8_t* blk =
                    row && b < nb ? row + static_cast<size_t>(b) * BlockBytes : nullptr;
                v[i] = blk ? block_values<T>(blk) : _mm256_setzero_si256();
                if (blk)
                    store_scale<T>(s + 2 * i, blk);
                else
                    std::memset(s + 2 * i, 0, 2);
            }
            store_group(q_dst + g * kGemmWeightGroupBytes, 64,
                        _mm512_xor_si512(join(v[0], v[1]), flip),
                        _mm512_xor_si512(join(v[2], v[3]), flip));
        }
    }
}

// -128 · the sum of the 32 signed bytes of a block: Σ (x + 128) from vpsadbw, less 32·128.
inline int32_t correction(__m256i x) {
    const __m256i s = _mm256_sad_epu8(
        _mm256_xor_si256(x, _mm256_set1_epi8(static_cast<char>(0x80))), _mm256_setzero_si256());
    const __m128i t = _mm_add_epi64(_mm256_castsi256_si128(s), _mm256_extracti128_si256(s, 1));
    const auto sum = static_cast<int32_t>(_mm_cvtsi128_si64(t) + _mm_extract_epi64(t, 1)) - 4096;
    return -128 * sum;
}

} // namespace

void gemm_pack_q8_0_weights(DType type, const uint8_t* const rows[kGemmRows], int64_t k,
                            uint8_t* dst) {
    switch (type) {
    case DType::Q8_0:
        return pack_weights<DType::Q8_0, sizeof(BlockQ8_0)>(rows, k, dst);
    case DType::Q4_0:
        return pack_weights<DType::Q4_0, sizeof(BlockQ4_0)>(rows, k, dst);
    case DType::Q5_0:
        return pack_weights<DType::Q5_0, sizeof(BlockQ5_0)>(rows, k, dst);
    case DType::IQ4_NL:
        return pack_weights<DType::IQ4_NL, sizeof(BlockIQ4NL)>(rows, k, dst);
    case DType::MXFP4:
        return pack_weights<DType::MXFP4, sizeof(BlockMxfp4)>(rows, k, dst);
    default:
        return; // gemm_q8_0_weight_type() is false: never reached
    }
}

void gemm_pack_q8_0_activations(const uint8_t* blocks, const float* scales, int64_t k,
                                uint8_t* dst) {
    const int64_t nb = k / 32, ng = (nb + 3) / 4;
    for (int64_t g = 0; g < ng; ++g, dst += kGemmActGroupBytes) {
        __m256i v[4];
        alignas(16) int32_t corr[4];
        alignas(16) float dx[4];
        for (int i = 0; i < 4; ++i) {
            const int64_t b = 4 * g + i;
            if (!blocks || b >= nb) {
                v[i] = _mm256_setzero_si256();
                corr[i] = 0;
                dx[i] = 0.0f;
                continue;
            }
            v[i] = block_values<DType::Q8_0>(blocks + static_cast<size_t>(b) * sizeof(BlockQ8_0));
            corr[i] = correction(v[i]);
            dx[i] = scales[b];
        }
        store_group(dst, 16, join(v[0], v[1]), join(v[2], v[3]));
        std::memcpy(dst + 128, corr, sizeof corr);
        std::memcpy(dst + 144, dx, sizeof dx);
    }
}

} // namespace folio::avx512
