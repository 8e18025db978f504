#pragma once
// Block layouts of Q4_1, Q5_0, Q5_1, Q8_1, Q2_K, Q3_K, Q5_K, IQ4_NL and IQ4_XS: facts of ggml's
// format (ggml/src/ggml-common.h, the block_* structs and kvalues_iq4nl), sizes pinned by
// static_asserts as there. ggml_half fields are raw fp16 bit patterns (tensor/fp16.h).
//
// Header-only and free of non-static functions, so *_avx2.cpp files may include it safely.

#include <cstdint>

namespace folio {

#pragma pack(push, 1)

// y[j] = (qs[j] & 0xF)·d + m, y[j+16] = (qs[j] >> 4)·d + m
struct BlockQ4_1 {
    uint16_t d;
    uint16_t m;
    uint8_t qs[16];
};

// Fifth bit of element j is bit j of the little-endian uint32 qh:
// y[j] = ((qs[j] & 0xF) | bit_j << 4) − 16)·d, y[j+16] = ((qs[j] >> 4) | bit_{j+16} << 4) − 16)·d
struct BlockQ5_0 {
    uint16_t d;
    uint8_t qh[4];
    uint8_t qs[16];
};

// As Q5_0 without the −16, plus m: y = q·d + m
struct BlockQ5_1 {
    uint16_t d;
    uint16_t m;
    uint8_t qh[4];
    uint8_t qs[16];
};

// Activation format of Q4_1 / Q5_1 dot products: s = fp16(d·Σ qs) (d before fp16 rounding).
struct BlockQ8_1 {
    uint16_t d;
    uint16_t s;
    int8_t qs[32];
};

// 16 sub-blocks of 16: scales[s] = 4-bit scale | 4-bit min << 4;
// y = d·(scales & 0xF)·q − dmin·(scales >> 4)·1, q 2 bits (qs layout: see dequantize_row_q2_k)
struct BlockQ2K {
    uint8_t scales[16];
    uint8_t qs[64];
    uint16_t d;
    uint16_t dmin;
};

// 16 sub-blocks of 16 with 6-bit scales (minus 32) packed in 12 bytes; q = 2 low bits from qs
// and a high bit from hmask, value (q − 4 when the hmask bit is clear)
struct BlockQ3K {
    uint8_t hmask[32];
    uint8_t qs[64];
    uint8_t scales[12];
    uint16_t d;
};

// Q4_K with a fifth bit per element in qh (bit 2c of qh[l] for element 64c + l, bit 2c+1 for
// element 64c + 32 + l)
struct BlockQ5K {
    uint16_t d;
    uint16_t dmin;
    uint8_t scales[12];
    uint8_t qh[32];
    uint8_t qs[128];
};

// y[j] = d·kIq4nlValues[qs[j] & 0xF], y[j+16] = d·kIq4nlValues[qs[j] >> 4]
struct BlockIQ4NL {
    uint16_t d;
    uint8_t qs[16];
};

// 8 sub-blocks of 32 with 6-bit scales ls (4 low bits in scales_l, 2 high in scales_h),
// value d·(ls − 32)·kIq4nlValues[nibble], nibbles as IQ4_NL per sub-block
struct BlockIQ4XS {
    uint16_t d;
    uint16_t scales_h;
    uint8_t scales_l[4];
    uint8_t qs[128];
};

#pragma pack(pop)

static_assert(sizeof(BlockQ4_1) == 20);
static_assert(sizeof(BlockQ5_0) == 22);
static_assert(sizeof(BlockQ5_1) == 24);
static_assert(sizeof(BlockQ8_1) == 36);
static_assert(sizeof(BlockQ2K) == 84);
static_assert(sizeof(BlockQ3K) == 110);
static_assert(sizeof(BlockQ5K) == 176);
static_assert(sizeof(BlockIQ4NL) == 18);
static_assert(sizeof(BlockIQ4XS) == 136);

// ggml-common.h kvalues_iq4nl: the 16 non-linear IQ4 levels.
inline constexpr int8_t kIq4nlValues[16] = {-127, -104, -83, -65, -49, -35, -22, -10,
                                            1,    13,   25,  38,  53,  69,  89,  113};

// Q5_0 / Q5_1 fifth bit of element j (0..31).
static inline int q5_high_bit(const uint8_t* qh, int j) {
    const uint32_t h = static_cast<uint32_t>(qh[0]) | static_cast<uint32_t>(qh[1]) << 8 |
                       static_cast<uint32_t>(qh[2]) << 16 | static_cast<uint32_t>(qh[3]) << 24;
    return static_cast<int>((h >> j) & 1u);
}

// Q3_K: the 16 signed sub-block scales (6-bit code − 32). Codes: low 4 bits of s < 8 in
// scales[s] & 0xF, of s ≥ 8 in scales[s − 8] >> 4; high 2 bits in scales[8 + s % 4] at bit
// 2·(s / 4).
static inline void q3k_scales(const uint8_t* scales, int8_t* out) {
    for (int s = 0; s < 16; ++s) {
        const int lo = s < 8 ? scales[s] & 0xF : scales[s - 8] >> 4;
        const int hi = (scales[8 + s % 4] >> (2 * (s / 4))) & 3;
        out[s] = static_cast<int8_t>((lo | hi << 4) - 32);
    }
}

// IQ4_XS: 6-bit scale code of sub-block ib (0..7), before the − 32.
static inline int iq4xs_scale(const BlockIQ4XS& b, int ib) {
    return ((b.scales_l[ib / 2] >> (4 * (ib % 2))) & 0xF) | (((b.scales_h >> (2 * ib)) & 3) << 4);
}

} // namespace folio
