// Reference row conversions of Q4_K and Q6_K (ggml/src/ggml-quants.c) and the scale
// searches of llama.cpp's k-quant reference quantizers (tensor/quant_rows.h).
#include "tensor/fp16.h"
#include "tensor/quant_blocks.h"
#include "tensor/quant_rows.h"
#include "tensor/quantize.h"

#include <algorithm>
#include <cmath>

namespace folio {

void dequantize_row_q4_k(const void* src, float* y, int64_t n) {
    const auto* b = static_cast<const BlockQ4K*>(src);
    const int64_t nb = n / kQKK;
    for (int64_t i = 0; i < nb; ++i) {
        const float d = fp16_to_fp32(b[i].d);
        const float dmin = fp16_to_fp32(b[i].dmin);
        const uint8_t* q = b[i].qs;
        for (int c = 0; c < 4; ++c, q += 32) {
            uint8_t sc, m;
            q4k_scale_min(2 * c, b[i].scales, &sc, &m);
            const float d1 = d * sc, m1 = dmin * m;
            q4k_scale_min(2 * c + 1, b[i].scales, &sc, &m);
            const float d2 = d * sc, m2 = dmin * m;
            for (int l = 0; l < 32; ++l)
                *y++ = d1 * (q[l] & 0xF) - m1;
            for (int l = 0; l < 32; ++l)
                *y++ = d2 * (q[l] >> 4) - m2;
        }
    }
}

void dequantize_row_q6_k(const void* src, float* y, int64_t n) {
    const auto* b = static_cast<const BlockQ6K*>(src);
    const int64_t nb = n / kQKK;
    for (int64_t i = 0; i < nb; ++i) {
        const float d = fp16_to_fp32(b[i].d);
        const uint8_t* ql = b[i].ql;
        const uint8_t* qh = b[i].qh;
        const int8_t* sc = b[i].scales;
        for (int n = 0; n < kQKK; n += 128, ql += 64, qh += 32, sc += 8, y += 128) {
            for (int l = 0; l < 32; ++l) {
                const int is = l / 16;
                const int q1 = ((ql[l] & 0xF) | (((qh[l] >> 0) & 3) << 4)) - 32;
                const int q2 = ((ql[l + 32] & 0xF) | (((qh[l] >> 2) & 3) << 4)) - 32;
                const int q3 = ((ql[l] >> 4) | (((qh[l] >> 4) & 3) << 4)) - 32;
                const int q4 = ((ql[l + 32] >> 4) | (((qh[l] >> 6) & 3) << 4)) - 32;
                y[l] = d * sc[is + 0] * q1;
                y[l + 32] = d * sc[is + 2] * q2;
                y[l + 64] = d * sc[is + 4] * q3;
                y[l + 96] = d * sc[is + 6] * q4;
            }
        }
    }
}

// make_qkx2_quants: weighted least-squares search for (scale, min) of n values on levels
// 0..nmax. Returns the scale; *neg_min receives -min (>= 0).
float make_qkx2_quants(int n, int nmax, const float* x, const float* w, uint8_t* L, float* neg_min,
                       uint8_t* Laux, float rmin, float rdelta, int nstep, bool use_mad) {
    float min = x[0], max = x[0];
    float sum_w = w[0], sum_x = w[0] * x[0];
    for (int i = 1; i < n; ++i) {
        min = std::min(min, x[i]);
        max = std::max(max, x[i]);
        sum_w += w[i];
        sum_x += w[i] * x[i];
    }
    if (min > 0)
        min = 0;
    if (max == min) {
        std::fill(L, L + n, uint8_t{0});
        *neg_min = -min;
        return 0.0f;
    }
    float iscale = nmax / (max - min);
    float scale = 1 / iscale;
    float best_error = 0;
    for (int i = 0; i < n; ++i) {
        const int l = std::clamp(nearest_int(iscale * (x[i] - min)), 0, nmax);
        L[i] = static_cast<uint8_t>(l);
        const float diff = scale * L[i] + min - x[i];
        best_error += w[i] * (use_mad ? std::fabs(diff) : diff * diff);
    }
    for (int is = 0; is <= nstep; ++is) {
        iscale = (rmin + rdelta * is + nmax) / (max - min);
        float sum_l = 0, sum_l2 = 0, sum_xl = 0;
        for (int i = 0; i < n; ++i) {
            const int l = std::clamp(nearest_int(iscale * (x[i] - min)), 0, nmax);
            Laux[i] = static_cast<uint8_t>(l);
            sum_l += w[i] * l;
            sum_l2 += w[i] * l * l;
            sum_xl += w[i] * l * x[i];
        }
        const float D = sum_w * sum_l2 - sum_l * sum_l;
        if (D > 0) {
            float this_scale = (sum_w * sum_xl - sum_x * sum_l) / D;
            float this_min = (sum_l2 * sum_x - sum_l * sum_xl) / D;
            if (this_min > 0) {
                this_min = 0;
                this_scale = sum_xl / sum_l2;
            }
            float cur_error = 0;
            for (int i = 0; i < n; ++i) {
                const float diff = this_scale * Laux[i] + this_min - x[i];
                cur_error += w[i] * (use_mad ? std::fabs(diff) : diff * diff);
            }
            if (cur_error < best_error) {
                std::copy(Laux, Laux + n, L);
                best_error = cur_error;
                scale = this_scale;
                min = this_min;
            }
        }
    }
    *neg_min = -min;
    return scale;
}

void quantize_k_scale_min_superblock(const float* x, int nmax, float rmin, int nstep,
                                     uint8_t scales[12], uint16_t* d, uint16_t* dmin,
                                     uint8_t L[256]) {
    uint8_t Laux[32];
    float weights[32], mins[8], sub_scales[8];
    float max_scale = 0, max_min = 0;
    for (int j = 0; j < 8; ++j) {
        float sum_x2 = 0;
        for (int l = 0; l < 32; ++l)
            sum_x2 += x[32 * j + l] * x[32 * j + l];
        const float av_x = std::sqrt(sum_x2 / 32);
        for (int l = 0; l < 32; ++l)
            weights[l] = av_x + std::fabs(x[32 * j + l]);
        sub_scales[j] = make_qkx2_quants(32, nmax, x + 32 * j, weights, L + 32 * j, &mins[j], Laux,
                                         rmin, 0.1f, nstep);
        max_scale = std::max(max_scale, sub_scales[j]);
        max_min = std::max(max_min, mins[j]);
    }
    const float inv_scale = max_scale > 0 ? 63.0f / max_scale : 0.0f;
    const float inv_min = max_min > 0 ? 63.0f / max_min : 0.0f;
    std::memset(scales, 0, 12);
    for (int j = 0; j < 8; ++j) {
        const uint8_t ls =
            static_cast<uint8_t>(std::min(63, nearest_int(inv_scale * sub_scales[j])));
        const uint8_t lm = static_cast<uint8_t>(std::min(63, nearest_int(inv_min * mins[j])));
        if (j < 4) {
            scales[j] = ls;
            scales[j + 4] = lm;
        } else {
            scales[j + 4] = static_cast<uint8_t>((ls & 0xF) | ((lm & 0xF) << 4));
            scales[j - 4] |= static_cast<uint8_t>((ls >> 4) << 6);
            scales[j] |= static_cast<uint8_t>((lm >> 4) << 6);
        }
    }
    *d = fp32_to_fp16(max_scale / 63.0f);
    *dmin = fp32_to_fp16(max_min / 63.0f);
    // Re-quantize every element with the stored fp16 scales.
    for (int j = 0; j < 8; ++j) {
        uint8_t sc, m;
        q4k_scale_min(j, scales, &sc, &m);
        const float dj = fp16_to_fp32(*d) * sc;
        if (dj == 0)
            continue;
        const float dm = fp16_to_fp32(*dmin) * m;
        for (int l = 0; l < 32; ++l)
            L[32 * j + l] =
                static_cast<uint8_t>(std::clamp(nearest_int((x[32 * j + l] + dm) / dj), 0, nmax));
    }
}

void quantize_row_q4_k(const float* x, void* dst, int64_t n) {
    auto* b = static_cast<BlockQ4K*>(dst);
    uint8_t L[kQKK];
    for (int64_t i = 0; i < n / kQKK; ++i, x += kQKK) {
        BlockQ4K& blk = b[i];
        quantize_k_scale_min_superblock(x, 15, -1.0f, 20, blk.scales, &blk.d, &blk.dmin, L);
        for (int c = 0; c < 4; ++c)
            for (int l = 0; l < 32; ++l)
                blk.qs[32 * c + l] =
                    static_cast<uint8_t>(L[64 * c + l] | (L[64 * c + 32 + l] << 4));
    }
}

inline constexpr float kGroupMaxEps = 1e-15f;

// make_qx_quants(n, nmax, x, L, rmse_type = 1): signed levels -nmax..nmax-1 stored as
// L = l + nmax, weights x², 19 trial scales -(nmax + 0.1·is)/max, is = -9..9.
float make_qx_quants_rmse1(int n, int nmax, const float* x, int8_t* L) {
    float max = 0, amax = 0;
    for (int i = 0; i < n; ++i) {
        if (std::fabs(x[i]) > amax) {
            amax = std::fabs(x[i]);
            max = x[i];
        }
    }
    if (amax < kGroupMaxEps) {
        std::fill(L, L + n, int8_t{0});
        return 0.0f;
    }
    auto level = [&](float iscale, int i) {
        return std::max(-nmax, std::min(nmax - 1, nearest_int(iscale * x[i])));
    };
    float iscale = -nmax / max;
    float sumlx = 0, suml2 = 0;
    for (int i = 0; i < n; ++i) {
        const int l = level(iscale, i);
        L[i] = static_cast<int8_t>(l + nmax);
        const float w = x[i] * x[i];
        sumlx += w * x[i] * l;
        suml2 += w * l * l;
    }
    float scale = suml2 != 0 ? sumlx / suml2 : 0.0f;
    float best = scale * sumlx;
    for (int is = -9; is <= 9; ++is) {
        if (is == 0)
            continue;
        iscale = -(nmax + 0.1f * is) / max;
        sumlx = suml2 = 0;
        for (int i = 0; i < n; ++i) {
            const int l = level(iscale, i);
            const float w = x[i] * x[i];
            sumlx += w * x[i] * l;
            suml2 += w * l * l;
        }
        if (suml2 > 0 && sumlx * sumlx > best * suml2) {
            for (int i = 0; i < n; ++i)
                L[i] = static_cast<int8_t>(nmax + level(iscale, i));
            scale = sumlx / suml2;
            best = scale * sumlx;
        }
    }
    return scale;
}

void quantize_row_q6_k(const float* x, void* dst, int64_t n) {
    auto* b = static_cast<BlockQ6K*>(dst);
    const int64_t nb = n / kQKK;
    int8_t L[kQKK];
    float scales[16];
    for (int64_t i = 0; i < nb; ++i, x += kQKK) {
        float max_scale = 0, max_abs_scale = 0;
        for (int ib = 0; ib < 16; ++ib) {
            const float scale = make_qx_quants_rmse1(16, 32, x + 16 * ib, L + 16 * ib);
            scales[ib] = scale;
            if (std::fabs(scale) > max_abs_scale) {
                max_abs_scale = std::fabs(scale);
                max_scale = scale;
            }
        }
        BlockQ6K& blk = b[i];
        if (max_abs_scale < kGroupMaxEps) {
            std::memset(&blk, 0, sizeof blk);
            continue;
        }
        const float iscale = -128.0f / max_scale;
        blk.d = fp32_to_fp16(1 / iscale);
        for (int ib = 0; ib < 16; ++ib)
            blk.scales[ib] = static_cast<int8_t>(std::min(127, nearest_int(iscale * scales[ib])));
        for (int j = 0; j < 16; ++j) {
            const float d = fp16_to_fp32(blk.d) * blk.scales[j];
            if (d == 0)
                continue;
            for (int ii = 0; ii < 16; ++ii) {
                const int l = std::clamp(nearest_int(x[16 * j + ii] / d), -32, 31);
                L[16 * j + ii] = static_cast<int8_t>(l + 32);
            }
        }
        uint8_t* ql = blk.ql;
        uint8_t* qh = blk.qh;
        for (int j = 0; j < kQKK; j += 128, ql += 64, qh += 32) {
            for (int l = 0; l < 32; ++l) {
                const int q1 = L[j + l], q2 = L[j + l + 32], q3 = L[j + l + 64], q4 = L[j + l + 96];
                ql[l] = static_cast<uint8_t>((q1 & 0xF) | ((q3 & 0xF) << 4));
                ql[l + 32] = static_cast<uint8_t>((q2 & 0xF) | ((q4 & 0xF) << 4));
                qh[l] = static_cast<uint8_t>((q1 >> 4) | ((q2 >> 4) << 2) | ((q3 >> 4) << 4) |
                                             ((q4 >> 4) << 6));
            }
        }
    }
}

} // namespace folio
