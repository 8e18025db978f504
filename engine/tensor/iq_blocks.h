#pragma once
// Block layouts of the grid i-quants (IQ1_S, IQ1_M, IQ2_XXS, IQ2_XS, IQ2_S, IQ3_XXS, IQ3_S) and the
// ternary types (TQ1_0, TQ2_0): super-blocks of 256 values, as ggml's ggml/src/ggml-common.h
// defines them (block_iq2_xxs ... block_tq2_0). Plain packed structs pinned by static_asserts;
// uint16_t scale fields are raw fp16 bit patterns. What the bits mean is in tensor/iq_decode.cpp.
//
// Header-only, no non-static functions: *_avx2.cpp files include it.

#include <cstdint>

namespace folio {

inline constexpr int kQKIq = 256; // values per super-block of every type here

#pragma pack(push, 1)

// IQ2_XXS (id 16, 2.0625 bpw): per 32 values two uint32 — four 8-bit indices into kIq2xxsGrid,
// then four 7-bit sign codes and a 4-bit scale.
struct BlockIq2xxs {
    uint16_t d;
    uint16_t qs[kQKIq / 8];
};

// IQ2_XS (id 17, 2.3125 bpw): per 8 values a uint16 (9-bit index into kIq2xsGrid, 7-bit sign
// code); per 32 values a byte with two 4-bit scales (one per 16 values).
struct BlockIq2xs {
    uint16_t d;
    uint16_t qs[kQKIq / 8];
    uint8_t scales[kQKIq / 32];
};

// IQ2_S (id 22, 2.5625 bpw): qs holds 32 low index bytes then 32 sign bytes; qh two more index
// bits per 8 values (10-bit indices into kIq2sGrid); scales as IQ2_XS.
struct BlockIq2s {
    uint16_t d;
    uint8_t qs[kQKIq / 4];
    uint8_t qh[kQKIq / 32];
    uint8_t scales[kQKIq / 32];
};

// IQ3_XXS (id 18, 3.0625 bpw): 64 index bytes into kIq3xxsGrid (4 values each), then per 32
// values a uint32 of four 7-bit sign codes and a 4-bit scale.
struct BlockIq3xxs {
    uint16_t d;
    uint8_t qs[3 * kQKIq / 8];
};

// IQ3_S (id 21, 3.4375 bpw): 9-bit indices into kIq3sGrid (low bytes in qs, ninth bits in qh),
// explicit sign bits, a 4-bit scale per 32 values.
struct BlockIq3s {
    uint16_t d;
    uint8_t qs[kQKIq / 4];
    uint8_t qh[kQKIq / 32];
    uint8_t signs[kQKIq / 8];
    uint8_t scales[kQKIq / 64];
};

// IQ1_S (id 19, 1.5625 bpw): 11-bit indices into kIq1sGrid (low bytes in qs, 3 bits each in
// qh), per 32 values a 3-bit scale and the sign of the ±1/8 shift in the top bits of qh.
struct BlockIq1s {
    uint16_t d;
    uint8_t qs[kQKIq / 8];
    uint16_t qh[kQKIq / 32];
};

// IQ1_M (id 29, 1.75 bpw): no separate fp16 scale; its 16 bits are spread over the top nibbles
// of the four uint16 words of scales, which also hold 3-bit scales per 16 values.
struct BlockIq1m {
    uint8_t qs[kQKIq / 8];
    uint8_t qh[kQKIq / 16];
    uint8_t scales[kQKIq / 32];
};

// TQ1_0 (id 34, 1.6875 bpw): base-3 digits, five per qs byte and four per qh byte.
struct BlockTq1_0 {
    uint8_t qs[(kQKIq - 4 * kQKIq / 64) / 5];
    uint8_t qh[kQKIq / 64];
    uint16_t d;
};

// TQ2_0 (id 35, 2.0625 bpw): 2-bit codes q (value q − 1), four per byte.
struct BlockTq2_0 {
    uint8_t qs[kQKIq / 4];
    uint16_t d;
};

#pragma pack(pop)

static_assert(sizeof(BlockIq2xxs) == 66);
static_assert(sizeof(BlockIq2xs) == 74);
static_assert(sizeof(BlockIq2s) == 82);
static_assert(sizeof(BlockIq3xxs) == 98);
static_assert(sizeof(BlockIq3s) == 110);
static_assert(sizeof(BlockIq1s) == 50);
static_assert(sizeof(BlockIq1m) == 56);
static_assert(sizeof(BlockTq1_0) == 54);
static_assert(sizeof(BlockTq2_0) == 66);

} // namespace folio
