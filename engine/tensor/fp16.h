#pragma once
// fp16 <-> fp32 and bf16 <-> fp32 conversions, bit-exact as ggml's (ggml/src/ggml-impl.h):
// fp32 -> fp16 rounds to nearest even, overflows to ±inf, keeps subnormals, NaN -> 0x7E00;
// fp32 -> bf16 rounds to nearest even, NaN -> (bits >> 16) | 0x40; bf16 -> fp32 is bits << 16.
//
// The functions are `static inline` on purpose: this header is also included by the *_avx2.cpp
// translation units, and internal linkage guarantees that no AVX2-compiled copy of a shared
// inline symbol can be picked by the linker for the code that runs on CPUs without AVX2.

#include <cstdint>
#include <cstring>

namespace folio {

static inline uint32_t f32_bits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
}

static inline float f32_from_bits(uint32_t u) {
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
}

// IEEE binary16 -> binary32 (exact; every fp16 value is representable).
static inline float fp16_to_fp32(uint16_t h) {
    const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
    const uint32_t exp = (h >> 10) & 0x1Fu;
    uint32_t mant = h & 0x3FFu;
    if (exp == 0x1F) // inf / NaN: keep the payload
        return f32_from_bits(sign | 0x7F800000u | (mant << 13));
    if (exp != 0)
        return f32_from_bits(sign | ((exp + 112u) << 23) | (mant << 13));
    if (mant == 0)
        return f32_from_bits(sign);
    // Subnormal: value = mant * 2^-24; normalise.
    int e = -1;
    do {
        ++e;
        mant <<= 1;
    } while ((mant & 0x400u) == 0);
    return f32_from_bits(sign | ((112u - static_cast<uint32_t>(e)) << 23) |
                         ((mant & 0x3FFu) << 13));
}

// IEEE binary32 -> binary16, round to nearest even.
static inline uint16_t fp32_to_fp16(float f) {
    const uint32_t x = f32_bits(f);
    const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
    const uint32_t ax = x & 0x7FFFFFFFu;
    if (ax > 0x7F800000u) // NaN
        return 0x7E00;
    if (ax >= 0x477FF000u) // >= 65520 rounds to inf (65504 + half ulp, tie goes to even = inf)
        return static_cast<uint16_t>(sign | 0x7C00u);
    if (ax < 0x38800000u) {   // below the smallest normal fp16 (2^-14): subnormal or zero
        if (ax < 0x33000000u) // < 2^-25: rounds to zero (2^-25 itself ties to even = 0)
            return sign;
        const uint32_t e = ax >> 23; // 102..112
        const uint32_t m = (ax & 0x7FFFFFu) | 0x800000u;
        const uint32_t shift = 126u - e; // value = m * 2^(e-150); fp16 unit = 2^-24
        uint32_t q = m >> shift;
        const uint32_t rem = m & ((1u << shift) - 1u);
        const uint32_t half = 1u << (shift - 1u);
        if (rem > half || (rem == half && (q & 1u)))
            ++q;
        return static_cast<uint16_t>(sign | q);
    }
    // Normal: rebias the exponent, round the 13 dropped mantissa bits to nearest even. A carry
    // out of the mantissa correctly bumps the exponent (up to inf).
    uint32_t h = ((ax >> 23) - 112u) << 10 | ((ax >> 13) & 0x3FFu);
    const uint32_t rem = ax & 0x1FFFu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u)))
        ++h;
    return static_cast<uint16_t>(sign | h);
}

static inline float bf16_to_fp32(uint16_t b) {
    return f32_from_bits(static_cast<uint32_t>(b) << 16);
}

static inline uint16_t fp32_to_bf16(float f) {
    const uint32_t x = f32_bits(f);
    if ((x & 0x7FFFFFFFu) > 0x7F800000u)
        return static_cast<uint16_t>((x >> 16) | 0x40u);
    return static_cast<uint16_t>((x + 0x7FFFu + ((x >> 16) & 1u)) >> 16);
}

} // namespace folio
