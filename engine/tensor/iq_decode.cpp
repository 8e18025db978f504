// Decoders of the grid i-quants and ternary types (tensor/iq_decode.h). The bit layouts follow
// ggml's block definitions (ggml/src/ggml-common.h) and the meaning its dequantize_row_iq* /
// dequantize_row_tq* give them (ggml/src/ggml-quants.c); the arithmetic is written here from that
// description. Grid bytes are read with shifts: byte j of an entry is value j of its group.
#include "tensor/iq_decode.h"

#include "tensor/fp16.h"
#include "tensor/iq_blocks.h"
#include "tensor/iq_grids.h"

namespace folio {

namespace {

// Eight values of a group: codebook magnitudes with sign bit j of `signs` negating value j.
void put_signed_group(int8_t* q, uint64_t grid, uint8_t signs) {
    for (int j = 0; j < 8; ++j) {
        const int v = static_cast<int>((grid >> (8 * j)) & 0xFF);
        q[j] = static_cast<int8_t>((signs >> j) & 1 ? -v : v);
    }
}

// Four values of an IQ3 grid entry with sign bits 0..3 of `signs`.
void put_signed_quad(int8_t* q, uint32_t grid, uint8_t signs) {
    for (int j = 0; j < 4; ++j) {
        const int v = static_cast<int>((grid >> (8 * j)) & 0xFF);
        q[j] = static_cast<int8_t>((signs >> j) & 1 ? -v : v);
    }
}

// IQ1: eight signed grid values (-1, 0, 1) shifted by delta = ±1/8, stored as 8·v + 8·delta.
void put_iq1_group(int8_t* q, uint64_t grid, int delta_sign) {
    for (int j = 0; j < 8; ++j) {
        const int v = static_cast<int8_t>((grid >> (8 * j)) & 0xFF);
        q[j] = static_cast<int8_t>(8 * v + delta_sign);
    }
}

uint32_t le32(const uint8_t* p) {
    return static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8 |
           static_cast<uint32_t>(p[2]) << 16 | static_cast<uint32_t>(p[3]) << 24;
}

void set_scales(IqBlockInts* out, int first_group, int count, int scale) {
    for (int g = first_group; g < first_group + count; ++g)
        out->scale[g] = static_cast<uint8_t>(scale);
}

// A base-3 digit of a TQ1_0 byte: digit n of b (n = 0 most significant) is the top "trit" of
// b·3^n mod 256 scaled to 0..2, i.e. ((b·3^n mod 256)·3) >> 8.
int tq1_trit(uint8_t b, int n) {
    static constexpr uint8_t kPow3[5] = {1, 3, 9, 27, 81};
    const auto shifted = static_cast<uint8_t>(b * kPow3[n]);
    return (static_cast<int>(shifted) * 3) >> 8;
}

} // namespace

// Per 32 values: uint32 of four grid indices, uint32 of four 7-bit sign codes + 4-bit scale s;
// group scale 2s + 1, mult 1/8.
void decode_iq2_xxs(const void* block, IqBlockInts* out) {
    const auto* b = static_cast<const BlockIq2xxs*>(block);
    out->d = fp16_to_fp32(b->d);
    for (int ib = 0; ib < 8; ++ib) {
        const uint32_t idx = b->qs[4 * ib] | static_cast<uint32_t>(b->qs[4 * ib + 1]) << 16;
        const uint32_t sg = b->qs[4 * ib + 2] | static_cast<uint32_t>(b->qs[4 * ib + 3]) << 16;
        set_scales(out, 4 * ib, 4, 2 * static_cast<int>(sg >> 28) + 1);
        for (int l = 0; l < 4; ++l)
            put_signed_group(out->q + 32 * ib + 8 * l, kIq2xxsGrid[(idx >> (8 * l)) & 0xFF],
                             kIqSigns[(sg >> (7 * l)) & 127]);
    }
}

// Per 8 values a uint16: 9-bit grid index, 7-bit sign code. Scale nibbles per 16 values.
void decode_iq2_xs(const void* block, IqBlockInts* out) {
    const auto* b = static_cast<const BlockIq2xs*>(block);
    out->d = fp16_to_fp32(b->d);
    for (int ib = 0; ib < 8; ++ib) {
        set_scales(out, 4 * ib, 2, 2 * (b->scales[ib] & 0xF) + 1);
        set_scales(out, 4 * ib + 2, 2, 2 * (b->scales[ib] >> 4) + 1);
        for (int l = 0; l < 4; ++l) {
            const uint16_t v = b->qs[4 * ib + l];
            put_signed_group(out->q + 32 * ib + 8 * l, kIq2xsGrid[v & 511], kIqSigns[v >> 9]);
        }
    }
}

// 10-bit indices: low byte qs[4·ib + l], bits 8-9 from qh[ib] bits 2l, 2l+1; full sign bytes.
void decode_iq2_s(const void* block, IqBlockInts* out) {
    const auto* b = static_cast<const BlockIq2s*>(block);
    const uint8_t* signs = b->qs + kQKIq / 8;
    out->d = fp16_to_fp32(b->d);
    for (int ib = 0; ib < 8; ++ib) {
        set_scales(out, 4 * ib, 2, 2 * (b->scales[ib] & 0xF) + 1);
        set_scales(out, 4 * ib + 2, 2, 2 * (b->scales[ib] >> 4) + 1);
        for (int l = 0; l < 4; ++l) {
            const int idx = b->qs[4 * ib + l] | (((b->qh[ib] >> (2 * l)) & 3) << 8);
            put_signed_group(out->q + 32 * ib + 8 * l, kIq2sGrid[idx], signs[4 * ib + l]);
        }
    }
}

// 64 index bytes (4 values each), then per 32 values a uint32 of four sign codes + scale s;
// group scale 2s + 1, mult 1/4.
void decode_iq3_xxs(const void* block, IqBlockInts* out) {
    const auto* b = static_cast<const BlockIq3xxs*>(block);
    out->d = fp16_to_fp32(b->d);
    for (int ib = 0; ib < 8; ++ib) {
        const uint32_t sg = le32(b->qs + kQKIq / 4 + 4 * ib);
        set_scales(out, 4 * ib, 4, 2 * static_cast<int>(sg >> 28) + 1);
        const uint8_t* idx = b->qs + 8 * ib;
        for (int l = 0; l < 4; ++l) {
            const uint8_t signs = kIqSigns[(sg >> (7 * l)) & 127];
            int8_t* q = out->q + 32 * ib + 8 * l;
            put_signed_quad(q, kIq3xxsGrid[idx[2 * l]], signs);
            put_signed_quad(q + 4, kIq3xxsGrid[idx[2 * l + 1]], static_cast<uint8_t>(signs >> 4));
        }
    }
}

// 9-bit indices: low byte qs[8·ib + i], ninth bit qh[ib] bit i; full sign bytes; a scale nibble
// s per 32 values, group scale 2s + 1, mult 1.
void decode_iq3_s(const void* block, IqBlockInts* out) {
    const auto* b = static_cast<const BlockIq3s*>(block);
    out->d = fp16_to_fp32(b->d);
    for (int ib = 0; ib < 8; ++ib) {
        set_scales(out, 4 * ib, 4, 2 * ((b->scales[ib / 2] >> (4 * (ib % 2))) & 0xF) + 1);
        const uint8_t* idx = b->qs + 8 * ib;
        for (int l = 0; l < 4; ++l) {
            const uint8_t signs = b->signs[4 * ib + l];
            const int i1 = idx[2 * l] | (((b->qh[ib] >> (2 * l)) & 1) << 8);
            const int i2 = idx[2 * l + 1] | (((b->qh[ib] >> (2 * l + 1)) & 1) << 8);
            int8_t* q = out->q + 32 * ib + 8 * l;
            put_signed_quad(q, kIq3sGrid[i1], signs);
            put_signed_quad(q + 4, kIq3sGrid[i2], static_cast<uint8_t>(signs >> 4));
        }
    }
}

// Per 32 values a uint16 qh: bits 3l..3l+2 the high index bits of group l, bits 12-14 the scale
// s (2s + 1), bit 15 the sign of the shift. mult 1/8 (q = 8·grid ± 1).
void decode_iq1_s(const void* block, IqBlockInts* out) {
    const auto* b = static_cast<const BlockIq1s*>(block);
    out->d = fp16_to_fp32(b->d);
    for (int ib = 0; ib < 8; ++ib) {
        const uint16_t qh = b->qh[ib];
        set_scales(out, 4 * ib, 4, 2 * ((qh >> 12) & 7) + 1);
        const int delta = qh & 0x8000 ? -1 : 1;
        for (int l = 0; l < 4; ++l) {
            const int idx = b->qs[4 * ib + l] | (((qh >> (3 * l)) & 7) << 8);
            put_iq1_group(out->q + 32 * ib + 8 * l, kIq1sGrid[idx], delta);
        }
    }
}

// scales as four uint16 words: word w holds the 3-bit scales of 16-value halves 4w..4w+3
// (bits 0-2, 3-5, 6-8, 9-11) and nibble w of the fp16 block scale (bits 12-15). qh: per group
// of 8, 3 high index bits and the shift's sign (bit 3 of each nibble).
void decode_iq1_m(const void* block, IqBlockInts* out) {
    const auto* b = static_cast<const BlockIq1m*>(block);
    uint16_t sc[4];
    for (int w = 0; w < 4; ++w)
        sc[w] = static_cast<uint16_t>(b->scales[2 * w] | b->scales[2 * w + 1] << 8);
    const auto d16 = static_cast<uint16_t>((sc[0] >> 12) | ((sc[1] >> 8) & 0x00F0) |
                                           ((sc[2] >> 4) & 0x0F00) | (sc[3] & 0xF000));
    out->d = fp16_to_fp32(d16);
    for (int ib = 0; ib < 8; ++ib) {
        const int shift = 6 * (ib % 2);
        set_scales(out, 4 * ib, 2, 2 * ((sc[ib / 2] >> shift) & 7) + 1);
        set_scales(out, 4 * ib + 2, 2, 2 * ((sc[ib / 2] >> (shift + 3)) & 7) + 1);
        for (int l = 0; l < 4; ++l) {
            const int nibble = (b->qh[2 * ib + l / 2] >> (4 * (l % 2))) & 0xF;
            const int idx = b->qs[4 * ib + l] | ((nibble & 7) << 8);
            put_iq1_group(out->q + 32 * ib + 8 * l, kIq1sGrid[idx], nibble & 8 ? -1 : 1);
        }
    }
}

// Values 0..159: digit n of qs[m] (m < 32) is value 32n + m; 160..239: digit n of qs[32 + m]
// (m < 16) is value 160 + 16n + m; 240..255: digit n of qh[m] is value 240 + 4n + m.
// Value = digit − 1, scale 1.
void decode_tq1_0(const void* block, IqBlockInts* out) {
    const auto* b = static_cast<const BlockTq1_0*>(block);
    out->d = fp16_to_fp32(b->d);
    set_scales(out, 0, 32, 1);
    for (int n = 0; n < 5; ++n) {
        for (int m = 0; m < 32; ++m)
            out->q[32 * n + m] = static_cast<int8_t>(tq1_trit(b->qs[m], n) - 1);
        for (int m = 0; m < 16; ++m)
            out->q[160 + 16 * n + m] = static_cast<int8_t>(tq1_trit(b->qs[32 + m], n) - 1);
    }
    for (int n = 0; n < 4; ++n)
        for (int m = 0; m < 4; ++m)
            out->q[240 + 4 * n + m] = static_cast<int8_t>(tq1_trit(b->qh[m], n) - 1);
}

// Value 128h + 32l + m is bits 2l..2l+1 of qs[32h + m], minus 1; scale 1.
void decode_tq2_0(const void* block, IqBlockInts* out) {
    const auto* b = static_cast<const BlockTq2_0*>(block);
    out->d = fp16_to_fp32(b->d);
    set_scales(out, 0, 32, 1);
    for (int h = 0; h < 2; ++h)
        for (int l = 0; l < 4; ++l)
            for (int m = 0; m < 32; ++m)
                out->q[128 * h + 32 * l + m] =
                    static_cast<int8_t>(((b->qs[32 * h + m] >> (2 * l)) & 3) - 1);
}

std::optional<IqFormat> iq_format(uint32_t ggml_type) {
    static constexpr IqFormat kFormats[] = {
        {16, sizeof(BlockIq2xxs), 0.125f, decode_iq2_xxs},
        {17, sizeof(BlockIq2xs), 0.125f, decode_iq2_xs},
        {18, sizeof(BlockIq3xxs), 0.25f, decode_iq3_xxs},
        {19, sizeof(BlockIq1s), 0.125f, decode_iq1_s},
        {21, sizeof(BlockIq3s), 1.0f, decode_iq3_s},
        {22, sizeof(BlockIq2s), 0.125f, decode_iq2_s},
        {29, sizeof(BlockIq1m), 0.125f, decode_iq1_m},
        {34, sizeof(BlockTq1_0), 1.0f, decode_tq1_0},
        {35, sizeof(BlockTq2_0), 1.0f, decode_tq2_0},
    };
    for (const IqFormat& f : kFormats)
        if (f.ggml_type == ggml_type)
            return f;
    return std::nullopt;
}

void dequantize_row_iq(const IqFormat& format, const void* src, float* dst, int64_t n) {
    const auto* bytes = static_cast<const uint8_t*>(src);
    IqBlockInts blk;
    for (int64_t b = 0; b < n / kQKIq; ++b) {
        format.decode(bytes + b * format.block_bytes, &blk);
        const float dm = blk.d * format.mult;
        for (int g = 0; g < 32; ++g) {
            const float s = dm * static_cast<float>(blk.scale[g]);
            for (int j = 0; j < 8; ++j)
                dst[8 * g + j] = s * static_cast<float>(blk.q[8 * g + j]);
        }
        dst += kQKIq;
    }
}

#define FOLIO_IQ_DEQUANTIZE(name, id)                                                              \
    void dequantize_row_##name(const void* src, float* dst, int64_t n) {                           \
        static const IqFormat format = *iq_format(id);                                             \
        dequantize_row_iq(format, src, dst, n);                                                    \
    }
FOLIO_IQ_DEQUANTIZE(iq2_xxs, 16)
FOLIO_IQ_DEQUANTIZE(iq2_xs, 17)
FOLIO_IQ_DEQUANTIZE(iq3_xxs, 18)
FOLIO_IQ_DEQUANTIZE(iq1_s, 19)
FOLIO_IQ_DEQUANTIZE(iq3_s, 21)
FOLIO_IQ_DEQUANTIZE(iq2_s, 22)
FOLIO_IQ_DEQUANTIZE(iq1_m, 29)
FOLIO_IQ_DEQUANTIZE(tq1_0, 34)
FOLIO_IQ_DEQUANTIZE(tq2_0, 35)
#undef FOLIO_IQ_DEQUANTIZE

} // namespace folio
