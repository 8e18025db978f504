// Reference row conversions of Q4_1, Q5_0, Q5_1, IQ4_NL and IQ4_XS (layouts: ggml-common.h,
// tensor/quant_blocks_more.h). The quantizers follow the rules of ggml-quants.c's
// quantize_row_*_ref (no importance matrix): min/max scales for Q4_1 / Q5_1, the signed extreme
// over −16 for Q5_0, and for the IQ4 types the weighted scale search of quantize_row_iq4_nl_impl
// (weights x², 15 trial scales) with nearest-level lookup.
#include "tensor/fp16.h"
#include "tensor/quant_blocks_more.h"
#include "tensor/quant_rows.h"
#include "tensor/quantize.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace folio {

namespace {

void set_q5_high_bits(uint8_t* qh, uint32_t bits) {
    for (int i = 0; i < 4; ++i)
        qh[i] = static_cast<uint8_t>(bits >> (8 * i));
}

// ggml's best_index_int8: nearest of the 16 ascending levels to x (ties to the upper one only when
// strictly closer).
int iq4_best_index(float x) {
    const int8_t* v = kIq4nlValues;
    if (x <= v[0])
        return 0;
    if (x >= v[15])
        return 15;
    int lo = 0, hi = 15;
    while (hi - lo > 1) {
        const int mid = (lo + hi) / 2;
        if (x < v[mid])
            hi = mid;
        else
            lo = mid;
    }
    return x - v[hi - 1] < v[hi] - x ? hi - 1 : hi;
}

inline constexpr float kGroupMaxEps = 1e-15f;

// quantize_row_iq4_nl_impl for one super-block of n_sub sub-blocks of 32 (IQ4_NL: 1, IQ4_XS: 8)
// without an importance matrix. Writes the level indices to L, the per-sub-block scales to
// scales; returns nothing — the caller packs.
void iq4_search(const float* x, int n_sub, float* scales, uint8_t* L) {
    constexpr int ntry = 7;
    const int8_t* values = kIq4nlValues;
    for (int ib = 0; ib < n_sub; ++ib) {
        const float* xb = x + 32 * ib;
        uint8_t* Lb = L + 32 * ib;
        float weight[32];
        float amax = 0, max = 0;
        for (int j = 0; j < 32; ++j) {
            weight[j] = xb[j] * xb[j];
            if (std::fabs(xb[j]) > amax) {
                amax = std::fabs(xb[j]);
                max = xb[j];
            }
        }
        if (amax < kGroupMaxEps) {
            scales[ib] = 0;
            std::fill(Lb, Lb + 32, uint8_t{0});
            continue;
        }
        float d = -max / values[0];
        float id = 1 / d;
        float sumqx = 0, sumq2 = 0;
        for (int j = 0; j < 32; ++j) {
            const int l = iq4_best_index(id * xb[j]);
            Lb[j] = static_cast<uint8_t>(l);
            const float q = values[l];
            sumqx += weight[j] * q * xb[j];
            sumq2 += weight[j] * q * q;
        }
        d = sumqx / sumq2;
        float best = d * sumqx;
        for (int itry = -ntry; itry <= ntry; ++itry) {
            id = (itry + values[0]) / max;
            sumqx = sumq2 = 0;
            for (int j = 0; j < 32; ++j) {
                const float q = values[iq4_best_index(id * xb[j])];
                sumqx += weight[j] * q * xb[j];
                sumq2 += weight[j] * q * q;
            }
            if (sumq2 > 0 && sumqx * sumqx > best * sumq2) {
                d = sumqx / sumq2;
                best = d * sumqx;
            }
        }
        scales[ib] = d;
    }
}

void pack_iq4_nibbles(const uint8_t* L, uint8_t* qs, int n_sub) {
    for (int i = 0; i < n_sub; ++i)
        for (int j = 0; j < 16; ++j)
            qs[16 * i + j] = static_cast<uint8_t>(L[32 * i + j] | (L[32 * i + 16 + j] << 4));
}

} // namespace

void dequantize_row_q4_1(const void* src, float* y, int64_t n) {
    const auto* b = static_cast<const BlockQ4_1*>(src);
    for (int64_t i = 0; i < n / 32; ++i, y += 32) {
        const float d = fp16_to_fp32(b[i].d), m = fp16_to_fp32(b[i].m);
        for (int j = 0; j < 16; ++j) {
            y[j] = (b[i].qs[j] & 0xF) * d + m;
            y[j + 16] = (b[i].qs[j] >> 4) * d + m;
        }
    }
}

void dequantize_row_q5_0(const void* src, float* y, int64_t n) {
    const auto* b = static_cast<const BlockQ5_0*>(src);
    for (int64_t i = 0; i < n / 32; ++i, y += 32) {
        const float d = fp16_to_fp32(b[i].d);
        for (int j = 0; j < 16; ++j) {
            y[j] = ((b[i].qs[j] & 0xF) + 16 * q5_high_bit(b[i].qh, j) - 16) * d;
            y[j + 16] = ((b[i].qs[j] >> 4) + 16 * q5_high_bit(b[i].qh, j + 16) - 16) * d;
        }
    }
}

void dequantize_row_q5_1(const void* src, float* y, int64_t n) {
    const auto* b = static_cast<const BlockQ5_1*>(src);
    for (int64_t i = 0; i < n / 32; ++i, y += 32) {
        const float d = fp16_to_fp32(b[i].d), m = fp16_to_fp32(b[i].m);
        for (int j = 0; j < 16; ++j) {
            y[j] = ((b[i].qs[j] & 0xF) + 16 * q5_high_bit(b[i].qh, j)) * d + m;
            y[j + 16] = ((b[i].qs[j] >> 4) + 16 * q5_high_bit(b[i].qh, j + 16)) * d + m;
        }
    }
}

void dequantize_row_iq4_nl(const void* src, float* y, int64_t n) {
    const auto* b = static_cast<const BlockIQ4NL*>(src);
    for (int64_t i = 0; i < n / 32; ++i, y += 32) {
        const float d = fp16_to_fp32(b[i].d);
        for (int j = 0; j < 16; ++j) {
            y[j] = d * kIq4nlValues[b[i].qs[j] & 0xF];
            y[j + 16] = d * kIq4nlValues[b[i].qs[j] >> 4];
        }
    }
}

void dequantize_row_iq4_xs(const void* src, float* y, int64_t n) {
    const auto* b = static_cast<const BlockIQ4XS*>(src);
    for (int64_t i = 0; i < n / 256; ++i) {
        const float d = fp16_to_fp32(b[i].d);
        for (int ib = 0; ib < 8; ++ib, y += 32) {
            const float dl = d * static_cast<float>(iq4xs_scale(b[i], ib) - 32);
            const uint8_t* qs = b[i].qs + 16 * ib;
            for (int j = 0; j < 16; ++j) {
                y[j] = dl * kIq4nlValues[qs[j] & 0xF];
                y[j + 16] = dl * kIq4nlValues[qs[j] >> 4];
            }
        }
    }
}

// quantize_row_q4_1_ref: d = (max − min)/15, q = min(15, (int8)((x − min)·id + 0.5)).
void quantize_row_q4_1(const float* x, void* dst, int64_t n) {
    auto* b = static_cast<BlockQ4_1*>(dst);
    for (int64_t i = 0; i < n / 32; ++i, x += 32) {
        float min = x[0], max = x[0];
        for (int j = 1; j < 32; ++j) {
            min = std::min(min, x[j]);
            max = std::max(max, x[j]);
        }
        const float d = (max - min) / 15.0f;
        const float id = d != 0 ? 1.0f / d : 0.0f;
        b[i].d = fp32_to_fp16(d);
        b[i].m = fp32_to_fp16(min);
        for (int j = 0; j < 16; ++j) {
            const int q0 =
                std::min(15, static_cast<int>(static_cast<int8_t>((x[j] - min) * id + 0.5f)));
            const int q1 =
                std::min(15, static_cast<int>(static_cast<int8_t>((x[j + 16] - min) * id + 0.5f)));
            b[i].qs[j] = static_cast<uint8_t>(q0 | (q1 << 4));
        }
    }
}

// quantize_row_q5_0_ref: d = max/−16 (max = signed extreme), q = min(31, (int8)(x·id + 16.5)).
void quantize_row_q5_0(const float* x, void* dst, int64_t n) {
    auto* b = static_cast<BlockQ5_0*>(dst);
    for (int64_t i = 0; i < n / 32; ++i, x += 32) {
        float amax = 0, max = 0;
        for (int j = 0; j < 32; ++j)
            if (std::fabs(x[j]) > amax) {
                amax = std::fabs(x[j]);
                max = x[j];
            }
        const float d = max / -16.0f;
        const float id = d != 0 ? 1.0f / d : 0.0f;
        b[i].d = fp32_to_fp16(d);
        uint32_t qh = 0;
        for (int j = 0; j < 16; ++j) {
            const int q0 = std::min(31, static_cast<int>(static_cast<int8_t>(x[j] * id + 16.5f)));
            const int q1 =
                std::min(31, static_cast<int>(static_cast<int8_t>(x[j + 16] * id + 16.5f)));
            b[i].qs[j] = static_cast<uint8_t>((q0 & 0xF) | ((q1 & 0xF) << 4));
            qh |= static_cast<uint32_t>((q0 >> 4) & 1) << j;
            qh |= static_cast<uint32_t>((q1 >> 4) & 1) << (j + 16);
        }
        set_q5_high_bits(b[i].qh, qh);
    }
}

// quantize_row_q5_1_ref: d = (max − min)/31, q = (uint8)((x − min)·id + 0.5).
void quantize_row_q5_1(const float* x, void* dst, int64_t n) {
    auto* b = static_cast<BlockQ5_1*>(dst);
    for (int64_t i = 0; i < n / 32; ++i, x += 32) {
        float min = x[0], max = x[0];
        for (int j = 1; j < 32; ++j) {
            min = std::min(min, x[j]);
            max = std::max(max, x[j]);
        }
        const float d = (max - min) / 31.0f;
        const float id = d != 0 ? 1.0f / d : 0.0f;
        b[i].d = fp32_to_fp16(d);
        b[i].m = fp32_to_fp16(min);
        uint32_t qh = 0;
        for (int j = 0; j < 16; ++j) {
            const int q0 = static_cast<uint8_t>((x[j] - min) * id + 0.5f);
            const int q1 = static_cast<uint8_t>((x[j + 16] - min) * id + 0.5f);
            b[i].qs[j] = static_cast<uint8_t>((q0 & 0xF) | ((q1 & 0xF) << 4));
            qh |= static_cast<uint32_t>((q0 >> 4) & 1) << j;
            qh |= static_cast<uint32_t>((q1 >> 4) & 1) << (j + 16);
        }
        set_q5_high_bits(b[i].qh, qh);
    }
}

// quantize_iq4_nl without imatrix: one sub-block per block, d = the searched scale, levels
// re-picked with it.
void quantize_row_iq4_nl(const float* x, void* dst, int64_t n) {
    auto* b = static_cast<BlockIQ4NL*>(dst);
    for (int64_t i = 0; i < n / 32; ++i, x += 32) {
        float scale;
        uint8_t L[32];
        iq4_search(x, 1, &scale, L);
        b[i].d = fp32_to_fp16(scale);
        const float id = scale != 0 ? 1 / scale : 0.0f;
        for (int j = 0; j < 32; ++j)
            L[j] = static_cast<uint8_t>(iq4_best_index(id * x[j]));
        pack_iq4_nibbles(L, b[i].qs, 1);
    }
}

// quantize_iq4_xs without imatrix: eight searched sub-block scales, d = −max_scale/32, 6-bit
// codes l = clamp(round(scale/d), −32, 31) + 32, levels re-picked with d·l.
void quantize_row_iq4_xs(const float* x, void* dst, int64_t n) {
    auto* b = static_cast<BlockIQ4XS*>(dst);
    for (int64_t i = 0; i < n / 256; ++i, x += 256) {
        float scales[8];
        uint8_t L[256];
        iq4_search(x, 8, scales, L);
        float max_scale = 0, amax_scale = 0;
        for (float s : scales)
            if (std::fabs(s) > amax_scale) {
                amax_scale = std::fabs(s);
                max_scale = s;
            }
        const float d = -max_scale / 32;
        b[i].d = fp32_to_fp16(d);
        b[i].scales_h = 0;
        std::memset(b[i].scales_l, 0, sizeof b[i].scales_l);
        const float id = d != 0 ? 1 / d : 0.0f;
        for (int ib = 0; ib < 8; ++ib) {
            int l = std::clamp(nearest_int(id * scales[ib]), -32, 31);
            const float dl = d * static_cast<float>(l);
            const float idl = dl != 0 ? 1 / dl : 0.0f;
            for (int j = 0; j < 32; ++j)
                L[32 * ib + j] = static_cast<uint8_t>(iq4_best_index(idl * x[32 * ib + j]));
            l += 32;
            b[i].scales_l[ib / 2] |= static_cast<uint8_t>((l & 0xF) << (4 * (ib % 2)));
            b[i].scales_h |= static_cast<uint16_t>((l >> 4) << (2 * ib));
        }
        pack_iq4_nibbles(L, b[i].qs, 8);
    }
}

} // namespace folio
