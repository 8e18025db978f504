#pragma once
// Block layouts of the quantized tensor types (ggml's ggml/src/ggml-common.h). Plain packed
// structs whose sizes are pinned by static_asserts; ggml_half fields are raw fp16 bit patterns
// (convert with tensor/fp16.h). Quantization blocks always run along ne[0].
//
// Header-only and free of non-static functions, so *_avx2.cpp files may include it safely.

#include <cstdint>
#include <cstring>

namespace folio {

inline constexpr int kQK8_0 = 32;
inline constexpr int kQK4_0 = 32;
inline constexpr int kQKMxfp4 = 32;
inline constexpr int kQKK = 256; // super-block of the K-quants

#pragma pack(push, 1)

// block_q8_0: y[j] = qs[j] * fp32(d)
struct BlockQ8_0 {
    uint16_t d;
    int8_t qs[kQK8_0];
};

// block_q4_0: y[j] = ((qs[j] & 0xF) - 8) * d, y[j+16] = ((qs[j] >> 4) - 8) * d
struct BlockQ4_0 {
    uint16_t d;
    uint8_t qs[kQK4_0 / 2];
};

// block_mxfp4: y[j] = kMxfp4Values[qs[j] & 0xF] * 2^(e-128), y[j+16] = ... qs[j] >> 4
struct BlockMxfp4 {
    uint8_t e;
    uint8_t qs[kQKMxfp4 / 2];
};

// block_q4_K
struct BlockQ4K {
    uint16_t d;
    uint16_t dmin;
    uint8_t scales[12];
    uint8_t qs[kQKK / 2];
};

// block_q6_K
struct BlockQ6K {
    uint8_t ql[kQKK / 2];
    uint8_t qh[kQKK / 4];
    int8_t scales[kQKK / 16];
    uint16_t d;
};

// block_q8_K (run-time activation format only)
struct BlockQ8K {
    float d;
    int8_t qs[kQKK];
    int16_t bsums[kQKK / 16];
};

#pragma pack(pop)

static_assert(sizeof(BlockQ8_0) == 34);
static_assert(sizeof(BlockQ4_0) == 18);
static_assert(sizeof(BlockMxfp4) == 17);
static_assert(sizeof(BlockQ4K) == 144);
static_assert(sizeof(BlockQ6K) == 210);
static_assert(sizeof(BlockQ8K) == 292);

// Twice the OCP E2M1 values, so they fit int8.
inline constexpr int8_t kMxfp4Values[16] = {0, 1,  2,  3,  4,  6,  8,  12,
                                            0, -1, -2, -3, -4, -6, -8, -12};

// MXFP4's d = 2^(e-128) (half the E8M0 value), built bit-exactly: fp32 bits 0x00200000 << e for
// e < 2 (the two subnormal results), (e - 1) << 23 otherwise. 0xFF is not NaN (-> 2^127).
// The same value as bf16 bits (the top half of its fp32 bits: exact, bf16 has fp32's exponents).
static inline uint16_t e8m0_half_as_bf16(uint8_t e) {
    return static_cast<uint16_t>(e < 2 ? (0x0020u << e) : (static_cast<uint32_t>(e) - 1u) << 7);
}

static inline float e8m0_to_fp32_half(uint8_t e) {
    const uint32_t bits = e < 2 ? (0x00200000u << e) : (static_cast<uint32_t>(e) - 1u) << 23;
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

// get_scale_min_k4 (ggml-quants.c): 6-bit scale and min of sub-block j (0..7) of a Q4_K block.
static inline void q4k_scale_min(int j, const uint8_t* scales, uint8_t* sc, uint8_t* m) {
    if (j < 4) {
        *sc = scales[j] & 63;
        *m = scales[j + 4] & 63;
    } else {
        *sc = static_cast<uint8_t>((scales[j + 4] & 0xF) | ((scales[j - 4] >> 6) << 4));
        *m = static_cast<uint8_t>((scales[j + 4] >> 4) | ((scales[j] >> 6) << 4));
    }
}

// q4k_scale_min for all 8 sub-blocks at once, on 32-bit words (Q4_K and Q5_K scales): out bytes
// 0..7 = the scales, 8..15 = the mins. The vector dots load the 16 bytes into one register.
static inline void q4k_scales_mins(const uint8_t* scales, uint32_t out[4]) {
    constexpr uint32_t kMask6 = 0x3F3F3F3F, kMaskLo4 = 0x0F0F0F0F, kMask2 = 0x03030303;
    uint32_t u[3];
    std::memcpy(u, scales, 12);
    out[0] = u[0] & kMask6;
    out[1] = (u[2] & kMaskLo4) | (((u[0] >> 6) & kMask2) << 4);
    out[2] = u[1] & kMask6;
    out[3] = ((u[2] >> 4) & kMaskLo4) | (((u[1] >> 6) & kMask2) << 4);
}

} // namespace folio
