// Reference row conversions of Q2_K, Q3_K and Q5_K (layouts: ggml-common.h,
// tensor/quant_blocks_more.h). The quantizers follow the rules of ggml-quants.c's
// quantize_row_q{2,3,5}_K_ref (no importance matrix): per-sub-block scale searches
// (make_qkx2_quants for Q2_K with |error| weights and for Q5_K, make_q3_quants for Q3_K), scales
// re-coded against the super-block scale, every element re-quantized with the stored scales.
#include "tensor/fp16.h"
#include "tensor/quant_blocks.h"
#include "tensor/quant_blocks_more.h"
#include "tensor/quant_rows.h"
#include "tensor/quantize.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace folio {

namespace {

inline constexpr float kGroupMaxEps = 1e-15f;

// make_q3_quants(n, nmax, x, L, do_rmse = true): signed levels −nmax..nmax−1 with x²-weighted
// coordinate descent (up to 5 sweeps); L receives l + nmax.
float make_q3_quants(int n, int nmax, const float* x, int8_t* L) {
    float max = 0, amax = 0;
    for (int i = 0; i < n; ++i)
        if (std::fabs(x[i]) > amax) {
            amax = std::fabs(x[i]);
            max = x[i];
        }
    if (amax < kGroupMaxEps) {
        std::fill(L, L + n, int8_t{0});
        return 0.0f;
    }
    const float iscale = -nmax / max;
    float sumlx = 0, suml2 = 0;
    for (int i = 0; i < n; ++i) {
        const int l = std::clamp(nearest_int(iscale * x[i]), -nmax, nmax - 1);
        L[i] = static_cast<int8_t>(l);
        const float w = x[i] * x[i];
        sumlx += w * x[i] * l;
        suml2 += w * l * l;
    }
    for (int itry = 0; itry < 5; ++itry) {
        int n_changed = 0;
        for (int i = 0; i < n; ++i) {
            const float w = x[i] * x[i];
            float slx = sumlx - w * x[i] * L[i];
            if (slx > 0) {
                float sl2 = suml2 - w * L[i] * L[i];
                const int new_l = std::clamp(nearest_int(x[i] * sl2 / slx), -nmax, nmax - 1);
                if (new_l != L[i]) {
                    slx += w * x[i] * new_l;
                    sl2 += w * new_l * new_l;
                    if (sl2 > 0 && slx * slx * suml2 > sumlx * sumlx * sl2) {
                        L[i] = static_cast<int8_t>(new_l);
                        sumlx = slx;
                        suml2 = sl2;
                        ++n_changed;
                    }
                }
            }
        }
        if (n_changed == 0)
            break;
    }
    for (int i = 0; i < n; ++i)
        L[i] = static_cast<int8_t>(L[i] + nmax);
    return sumlx / suml2;
}

// Q2_K / Q3_K pack 2-bit values: byte l of 32-byte chunk c holds elements 128c + l + 32·s at bits
// 2s (s = 0..3).
void pack_2bit(const uint8_t* L, uint8_t* qs) {
    for (int j = 0; j < kQKK; j += 128)
        for (int l = 0; l < 32; ++l)
            qs[j / 4 + l] = static_cast<uint8_t>(L[j + l] | (L[j + l + 32] << 2) |
                                                 (L[j + l + 64] << 4) | (L[j + l + 96] << 6));
}

} // namespace

void dequantize_row_q2_k(const void* src, float* y, int64_t n) {
    const auto* b = static_cast<const BlockQ2K*>(src);
    for (int64_t i = 0; i < n / kQKK; ++i) {
        const float d = fp16_to_fp32(b[i].d), dmin = fp16_to_fp32(b[i].dmin);
        const uint8_t* q = b[i].qs;
        int is = 0;
        for (int c = 0; c < 2; ++c, q += 32)
            for (int shift = 0; shift < 8; shift += 2)
                for (int half = 0; half < 2; ++half) {
                    const uint8_t sc = b[i].scales[is++];
                    const float dl = d * (sc & 0xF), ml = dmin * (sc >> 4);
                    for (int l = 0; l < 16; ++l)
                        *y++ = dl * ((q[16 * half + l] >> shift) & 3) - ml;
                }
    }
}

void dequantize_row_q3_k(const void* src, float* y, int64_t n) {
    const auto* b = static_cast<const BlockQ3K*>(src);
    for (int64_t i = 0; i < n / kQKK; ++i) {
        const float d = fp16_to_fp32(b[i].d);
        int8_t sc[16];
        q3k_scales(b[i].scales, sc);
        const uint8_t* q = b[i].qs;
        int is = 0, bit = 0;
        for (int c = 0; c < 2; ++c, q += 32)
            for (int shift = 0; shift < 8; shift += 2, ++bit)
                for (int half = 0; half < 2; ++half) {
                    const float dl = d * sc[is++];
                    for (int l = 0; l < 16; ++l) {
                        const int h = (b[i].hmask[16 * half + l] >> bit) & 1;
                        *y++ = dl * (((q[16 * half + l] >> shift) & 3) - (h ? 0 : 4));
                    }
                }
    }
}

void dequantize_row_q5_k(const void* src, float* y, int64_t n) {
    const auto* b = static_cast<const BlockQ5K*>(src);
    for (int64_t i = 0; i < n / kQKK; ++i) {
        const float d = fp16_to_fp32(b[i].d), dmin = fp16_to_fp32(b[i].dmin);
        const uint8_t* ql = b[i].qs;
        for (int c = 0; c < 4; ++c, ql += 32) {
            uint8_t sc, m;
            q4k_scale_min(2 * c, b[i].scales, &sc, &m);
            const float d1 = d * sc, m1 = dmin * m;
            q4k_scale_min(2 * c + 1, b[i].scales, &sc, &m);
            const float d2 = d * sc, m2 = dmin * m;
            for (int l = 0; l < 32; ++l)
                *y++ = d1 * ((ql[l] & 0xF) + 16 * ((b[i].qh[l] >> (2 * c)) & 1)) - m1;
            for (int l = 0; l < 32; ++l)
                *y++ = d2 * ((ql[l] >> 4) + 16 * ((b[i].qh[l] >> (2 * c + 1)) & 1)) - m2;
        }
    }
}

void quantize_row_q2_k(const float* x, void* dst, int64_t n) {
    auto* b = static_cast<BlockQ2K*>(dst);
    constexpr float q4scale = 15.0f;
    for (int64_t i = 0; i < n / kQKK; ++i, x += kQKK) {
        uint8_t L[kQKK], Laux[16];
        float weights[16], mins[16], scales[16];
        float max_scale = 0, max_min = 0;
        for (int j = 0; j < 16; ++j) {
            for (int l = 0; l < 16; ++l)
                weights[l] = std::fabs(x[16 * j + l]);
            scales[j] = make_qkx2_quants(16, 3, x + 16 * j, weights, L + 16 * j, &mins[j], Laux,
                                         -0.5f, 0.1f, 15, true);
            max_scale = std::max(max_scale, scales[j]);
            max_min = std::max(max_min, mins[j]);
        }
        BlockQ2K& blk = b[i];
        std::memset(blk.scales, 0, sizeof blk.scales);
        blk.d = blk.dmin = 0;
        if (max_scale > 0) {
            const float iscale = q4scale / max_scale;
            for (int j = 0; j < 16; ++j)
                blk.scales[j] = static_cast<uint8_t>(nearest_int(iscale * scales[j]));
            blk.d = fp32_to_fp16(max_scale / q4scale);
        }
        if (max_min > 0) {
            const float iscale = q4scale / max_min;
            for (int j = 0; j < 16; ++j)
                blk.scales[j] |= static_cast<uint8_t>(nearest_int(iscale * mins[j]) << 4);
            blk.dmin = fp32_to_fp16(max_min / q4scale);
        }
        for (int j = 0; j < 16; ++j) {
            const float d = fp16_to_fp32(blk.d) * (blk.scales[j] & 0xF);
            if (d == 0)
                continue;
            const float dm = fp16_to_fp32(blk.dmin) * (blk.scales[j] >> 4);
            for (int ii = 0; ii < 16; ++ii)
                L[16 * j + ii] =
                    static_cast<uint8_t>(std::clamp(nearest_int((x[16 * j + ii] + dm) / d), 0, 3));
        }
        pack_2bit(L, blk.qs);
    }
}

void quantize_row_q3_k(const float* x, void* dst, int64_t n) {
    auto* b = static_cast<BlockQ3K*>(dst);
    for (int64_t i = 0; i < n / kQKK; ++i, x += kQKK) {
        int8_t L[kQKK];
        float scales[16];
        float max_scale = 0, amax = 0;
        for (int j = 0; j < 16; ++j) {
            scales[j] = make_q3_quants(16, 4, x + 16 * j, L + 16 * j);
            if (std::fabs(scales[j]) > amax) {
                amax = std::fabs(scales[j]);
                max_scale = scales[j];
            }
        }
        BlockQ3K& blk = b[i];
        std::memset(blk.scales, 0, sizeof blk.scales);
        blk.d = 0;
        if (max_scale != 0) {
            const float iscale = -32.0f / max_scale;
            for (int j = 0; j < 16; ++j) {
                const int l = std::clamp(nearest_int(iscale * scales[j]), -32, 31) + 32;
                if (j < 8)
                    blk.scales[j] = static_cast<uint8_t>(l & 0xF);
                else
                    blk.scales[j - 8] |= static_cast<uint8_t>((l & 0xF) << 4);
                blk.scales[j % 4 + 8] |= static_cast<uint8_t>((l >> 4) << (2 * (j / 4)));
            }
            blk.d = fp32_to_fp16(1 / iscale);
        }
        int8_t sc[16];
        q3k_scales(blk.scales, sc);
        for (int j = 0; j < 16; ++j) {
            const float d = fp16_to_fp32(blk.d) * sc[j];
            if (d == 0)
                continue;
            for (int ii = 0; ii < 16; ++ii)
                L[16 * j + ii] =
                    static_cast<int8_t>(std::clamp(nearest_int(x[16 * j + ii] / d), -4, 3) + 4);
        }
        std::memset(blk.hmask, 0, sizeof blk.hmask);
        uint8_t low[kQKK];
        for (int j = 0; j < kQKK; ++j) {
            int l = L[j];
            if (l > 3) {
                blk.hmask[j % 32] |= static_cast<uint8_t>(1 << (j / 32));
                l -= 4;
            }
            low[j] = static_cast<uint8_t>(l);
        }
        pack_2bit(low, blk.qs);
    }
}

void quantize_row_q5_k(const float* x, void* dst, int64_t n) {
    auto* b = static_cast<BlockQ5K*>(dst);
    uint8_t L[kQKK];
    for (int64_t i = 0; i < n / kQKK; ++i, x += kQKK) {
        BlockQ5K& blk = b[i];
        quantize_k_scale_min_superblock(x, 31, -0.5f, 15, blk.scales, &blk.d, &blk.dmin, L);
        std::memset(blk.qh, 0, sizeof blk.qh);
        for (int c = 0; c < 4; ++c)
            for (int l = 0; l < 32; ++l) {
                int l1 = L[64 * c + l], l2 = L[64 * c + 32 + l];
                if (l1 > 15) {
                    l1 -= 16;
                    blk.qh[l] |= static_cast<uint8_t>(1 << (2 * c));
                }
                if (l2 > 15) {
                    l2 -= 16;
                    blk.qh[l] |= static_cast<uint8_t>(1 << (2 * c + 1));
                }
                blk.qs[32 * c + l] = static_cast<uint8_t>(l1 | (l2 << 4));
            }
    }
}

} // namespace folio
