#pragma once
// Block layouts of Q1_0 (ggml type 41) and Q2_0 (type 42), the two low-bit types llama-quantize
// writes with one fp16 scale per block: 128 and 64 elements in 18 bytes. The bit order and the
// values were read off llama-quantize's own files against their F32 base (docs/NUMERICS.md,
// "Q1_0 and Q2_0"): the quantizers of tensor/quant_q1_q2.cpp rewrite every block of those files
// byte for byte, and the dots reproduce the files' logits.
//
// Header-only and free of non-static functions, so *_avx2.cpp files may include it safely.

#include <cstdint>

namespace folio {

inline constexpr int kQK1_0 = 128;
inline constexpr int kQK2_0 = 64;

#pragma pack(push, 1)

// Q1_0 (1.125 bpw): bit j of the block is bit j % 8 of qs[j / 8] (least significant first);
// y[j] = bit ? +d : −d. The quantizer stores d = fp16(Σ|x| / 128) (the mean magnitude) and the
// sign bits (x ≥ 0 → 1).
struct BlockQ1_0 {
    uint16_t d;
    uint8_t qs[kQK1_0 / 8];
};

// Q2_0 (2.25 bpw): the 2-bit code c of element j is bits 2·(j % 4) of qs[j / 4];
// y[j] = (c − 1)·d. The quantizer stores d = fp16(max |x|) and c = round(x / max |x|) + 1, so
// files hold the codes 0..2 (values −d, 0, +d); code 3 reads as +2·d.
struct BlockQ2_0 {
    uint16_t d;
    uint8_t qs[kQK2_0 / 4];
};

#pragma pack(pop)

static_assert(sizeof(BlockQ1_0) == 18);
static_assert(sizeof(BlockQ2_0) == 18);

} // namespace folio
