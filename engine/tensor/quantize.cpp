#include "tensor/quantize.h"

#include "tensor/fp16.h"
#include "tensor/quant_blocks.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace folio {

int nearest_int(float x) {
    const float v = x + 12582912.0f;
    int32_t i;
    std::memcpy(&i, &v, sizeof i);
    return (i & 0x007FFFFF) - 0x00400000;
}

bool dtype_is_computable(DType type) {
    switch (type) {
    case DType::F32:
    case DType::F16:
    case DType::BF16:
    case DType::Q8_0:
    case DType::Q4_0:
    case DType::Q4_K:
    case DType::Q6_K:
    case DType::MXFP4:
        return true;
    default:
        return false;
    }
}

namespace {

Status check_row(DType type, int64_t n, const char* what) {
    if (!dtype_is_computable(type))
        return make_error(ErrorCode::Unsupported, std::string(what) + ": tensor type " +
                                                      std::string(dtype_name(type)) +
                                                      " is not supported");
    const int64_t bs = dtype_traits(type).block_size;
    if (n < 0 || n % bs != 0)
        return make_error(ErrorCode::InvalidArgument,
                          std::string(what) + ": row of " + std::to_string(n) +
                              " elements is not a multiple of the " +
                              std::string(dtype_name(type)) + " block size " + std::to_string(bs));
    return {};
}

// ---- dequantization (§2.3-§2.7) --------------------------------------------------------------

void dequant_q8_0(const BlockQ8_0* b, float* y, int64_t nb) {
    for (int64_t i = 0; i < nb; ++i, y += kQK8_0) {
        const float d = fp16_to_fp32(b[i].d);
        for (int j = 0; j < kQK8_0; ++j)
            y[j] = b[i].qs[j] * d;
    }
}

void dequant_q4_0(const BlockQ4_0* b, float* y, int64_t nb) {
    for (int64_t i = 0; i < nb; ++i, y += kQK4_0) {
        const float d = fp16_to_fp32(b[i].d);
        for (int j = 0; j < kQK4_0 / 2; ++j) {
            y[j] = ((b[i].qs[j] & 0xF) - 8) * d;
            y[j + 16] = ((b[i].qs[j] >> 4) - 8) * d;
        }
    }
}

void dequant_mxfp4(const BlockMxfp4* b, float* y, int64_t nb) {
    for (int64_t i = 0; i < nb; ++i, y += kQKMxfp4) {
        const float d = e8m0_to_fp32_half(b[i].e);
        for (int j = 0; j < kQKMxfp4 / 2; ++j) {
            y[j] = kMxfp4Values[b[i].qs[j] & 0xF] * d;
            y[j + 16] = kMxfp4Values[b[i].qs[j] >> 4] * d;
        }
    }
}

void dequant_q4_k(const BlockQ4K* b, float* y, int64_t nb) {
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

void dequant_q6_k(const BlockQ6K* b, float* y, int64_t nb) {
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

// ---- weight quantizers (§2.3-§2.7) -------------------------------------------------------------

// §2.3 quantize_row_q8_0_ref: d = amax/127, id = 1/d, roundf (half away from zero).
void quant_q8_0(const float* x, BlockQ8_0* b, int64_t nb) {
    for (int64_t i = 0; i < nb; ++i, x += kQK8_0) {
        float amax = 0;
        for (int j = 0; j < kQK8_0; ++j)
            amax = std::max(amax, std::fabs(x[j]));
        const float d = amax / 127.0f;
        const float id = d != 0 ? 1.0f / d : 0.0f;
        b[i].d = fp32_to_fp16(d);
        for (int j = 0; j < kQK8_0; ++j)
            b[i].qs[j] = static_cast<int8_t>(std::roundf(x[j] * id));
    }
}

// §2.4: d = max / -8 with max the signed value of largest magnitude, q = min(15, trunc(x·id
// + 8.5)).
void quant_q4_0(const float* x, BlockQ4_0* b, int64_t nb) {
    for (int64_t i = 0; i < nb; ++i, x += kQK4_0) {
        float amax = 0, max = 0;
        for (int j = 0; j < kQK4_0; ++j) {
            if (std::fabs(x[j]) > amax) {
                amax = std::fabs(x[j]);
                max = x[j];
            }
        }
        const float d = max / -8.0f;
        const float id = d != 0 ? 1.0f / d : 0.0f;
        b[i].d = fp32_to_fp16(d);
        for (int j = 0; j < kQK4_0 / 2; ++j) {
            const int q0 = std::min(15, static_cast<int>(static_cast<int8_t>(x[j] * id + 8.5f)));
            const int q1 =
                std::min(15, static_cast<int>(static_cast<int8_t>(x[j + 16] * id + 8.5f)));
            b[i].qs[j] = static_cast<uint8_t>(q0 | (q1 << 4));
        }
    }
}

// §2.5: nearest doubled-E2M1 value, strict '<' scan (ties to the lower index).
int mxfp4_best_index(float x, float d) {
    int best = 0;
    float best_err = std::fabs(kMxfp4Values[0] * d - x);
    for (int i = 1; i < 16; ++i) {
        const float err = std::fabs(kMxfp4Values[i] * d - x);
        if (err < best_err) {
            best = i;
            best_err = err;
        }
    }
    return best;
}

void quant_mxfp4(const float* x, BlockMxfp4* b, int64_t nb) {
    for (int64_t i = 0; i < nb; ++i, x += kQKMxfp4) {
        float amax = 0;
        for (int j = 0; j < kQKMxfp4; ++j)
            amax = std::max(amax, std::fabs(x[j]));
        // (uint8)(floor(log2(amax)) - 2 + 127) without range clamping (§2.5). The float->uint8
        // conversion of an out-of-range value is what x86 does for llama.cpp's cast: truncate to
        // int, keep the low 8 bits (only reachable for amax < 2^-125).
        const uint8_t e =
            amax > 0 ? static_cast<uint8_t>(static_cast<int>(std::floor(std::log2(amax)) - 2 + 127))
                     : 0;
        const float d = e8m0_to_fp32_half(e);
        b[i].e = e;
        for (int j = 0; j < kQKMxfp4 / 2; ++j)
            b[i].qs[j] = static_cast<uint8_t>(mxfp4_best_index(x[j], d) |
                                              (mxfp4_best_index(x[j + 16], d) << 4));
    }
}

// §2.6 make_qkx2_quants: weighted least-squares search for (scale, min) of n values on levels
// 0..nmax. Returns the scale; *neg_min receives -min (>= 0).
float make_qkx2_quants(int n, int nmax, const float* x, const float* w, uint8_t* L, float* neg_min,
                       uint8_t* Laux, float rmin, float rdelta, int nstep) {
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
        best_error += w[i] * diff * diff;
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
                cur_error += w[i] * diff * diff;
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

void quant_q4_k(const float* x, BlockQ4K* b, int64_t nb) {
    uint8_t L[kQKK], Laux[32];
    float weights[32], mins[8], scales[8];
    for (int64_t i = 0; i < nb; ++i, x += kQKK) {
        float max_scale = 0, max_min = 0;
        for (int j = 0; j < 8; ++j) {
            float sum_x2 = 0;
            for (int l = 0; l < 32; ++l)
                sum_x2 += x[32 * j + l] * x[32 * j + l];
            const float av_x = std::sqrt(sum_x2 / 32);
            for (int l = 0; l < 32; ++l)
                weights[l] = av_x + std::fabs(x[32 * j + l]);
            scales[j] = make_qkx2_quants(32, 15, x + 32 * j, weights, L + 32 * j, &mins[j], Laux,
                                         -1.0f, 0.1f, 20);
            max_scale = std::max(max_scale, scales[j]);
            max_min = std::max(max_min, mins[j]);
        }
        const float inv_scale = max_scale > 0 ? 63.0f / max_scale : 0.0f;
        const float inv_min = max_min > 0 ? 63.0f / max_min : 0.0f;
        BlockQ4K& blk = b[i];
        std::memset(blk.scales, 0, sizeof blk.scales);
        for (int j = 0; j < 8; ++j) {
            const uint8_t ls =
                static_cast<uint8_t>(std::min(63, nearest_int(inv_scale * scales[j])));
            const uint8_t lm = static_cast<uint8_t>(std::min(63, nearest_int(inv_min * mins[j])));
            if (j < 4) {
                blk.scales[j] = ls;
                blk.scales[j + 4] = lm;
            } else {
                blk.scales[j + 4] = static_cast<uint8_t>((ls & 0xF) | ((lm & 0xF) << 4));
                blk.scales[j - 4] |= static_cast<uint8_t>((ls >> 4) << 6);
                blk.scales[j] |= static_cast<uint8_t>((lm >> 4) << 6);
            }
        }
        blk.d = fp32_to_fp16(max_scale / 63.0f);
        blk.dmin = fp32_to_fp16(max_min / 63.0f);
        // Re-quantize every element with the stored fp16 scales.
        for (int j = 0; j < 8; ++j) {
            uint8_t sc, m;
            q4k_scale_min(j, blk.scales, &sc, &m);
            const float d = fp16_to_fp32(blk.d) * sc;
            if (d == 0)
                continue;
            const float dm = fp16_to_fp32(blk.dmin) * m;
            for (int l = 0; l < 32; ++l)
                L[32 * j + l] =
                    static_cast<uint8_t>(std::clamp(nearest_int((x[32 * j + l] + dm) / d), 0, 15));
        }
        for (int c = 0; c < 4; ++c)
            for (int l = 0; l < 32; ++l)
                blk.qs[32 * c + l] =
                    static_cast<uint8_t>(L[64 * c + l] | (L[64 * c + 32 + l] << 4));
    }
}

inline constexpr float kGroupMaxEps = 1e-15f;

// §2.7 make_qx_quants(n, nmax, x, L, rmse_type = 1): signed levels -nmax..nmax-1 stored as
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

void quant_q6_k(const float* x, BlockQ6K* b, int64_t nb) {
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

} // namespace

Status dequantize_row(DType type, const void* src, float* dst, int64_t n) {
    FOLIO_CHECK(check_row(type, n, "dequantize_row"));
    const int64_t nb = n / dtype_traits(type).block_size;
    switch (type) {
    case DType::F32:
        std::memcpy(dst, src, static_cast<size_t>(n) * sizeof(float));
        break;
    case DType::F16: {
        const auto* h = static_cast<const uint16_t*>(src);
        for (int64_t i = 0; i < n; ++i)
            dst[i] = fp16_to_fp32(h[i]);
        break;
    }
    case DType::BF16: {
        const auto* h = static_cast<const uint16_t*>(src);
        for (int64_t i = 0; i < n; ++i)
            dst[i] = bf16_to_fp32(h[i]);
        break;
    }
    case DType::Q8_0:
        dequant_q8_0(static_cast<const BlockQ8_0*>(src), dst, nb);
        break;
    case DType::Q4_0:
        dequant_q4_0(static_cast<const BlockQ4_0*>(src), dst, nb);
        break;
    case DType::MXFP4:
        dequant_mxfp4(static_cast<const BlockMxfp4*>(src), dst, nb);
        break;
    case DType::Q4_K:
        dequant_q4_k(static_cast<const BlockQ4K*>(src), dst, nb);
        break;
    case DType::Q6_K:
        dequant_q6_k(static_cast<const BlockQ6K*>(src), dst, nb);
        break;
    default:
        return make_error(ErrorCode::Internal, "dequantize_row: unhandled type");
    }
    return {};
}

Status quantize_row(DType type, const float* src, void* dst, int64_t n) {
    FOLIO_CHECK(check_row(type, n, "quantize_row"));
    const int64_t nb = n / dtype_traits(type).block_size;
    switch (type) {
    case DType::F32:
        std::memcpy(dst, src, static_cast<size_t>(n) * sizeof(float));
        break;
    case DType::F16: {
        auto* h = static_cast<uint16_t*>(dst);
        for (int64_t i = 0; i < n; ++i)
            h[i] = fp32_to_fp16(src[i]);
        break;
    }
    case DType::BF16: {
        auto* h = static_cast<uint16_t*>(dst);
        for (int64_t i = 0; i < n; ++i)
            h[i] = fp32_to_bf16(src[i]);
        break;
    }
    case DType::Q8_0:
        quant_q8_0(src, static_cast<BlockQ8_0*>(dst), nb);
        break;
    case DType::Q4_0:
        quant_q4_0(src, static_cast<BlockQ4_0*>(dst), nb);
        break;
    case DType::MXFP4:
        quant_mxfp4(src, static_cast<BlockMxfp4*>(dst), nb);
        break;
    case DType::Q4_K:
        quant_q4_k(src, static_cast<BlockQ4K*>(dst), nb);
        break;
    case DType::Q6_K:
        quant_q6_k(src, static_cast<BlockQ6K*>(dst), nb);
        break;
    default:
        return make_error(ErrorCode::Internal, "quantize_row: unhandled type");
    }
    return {};
}

void quantize_row_q8_0_act(const float* src, void* dst, int64_t n) {
    auto* b = static_cast<BlockQ8_0*>(dst);
    for (int64_t i = 0; i < n / kQK8_0; ++i, src += kQK8_0) {
        float amax = 0;
        for (int j = 0; j < kQK8_0; ++j)
            amax = std::max(amax, std::fabs(src[j]));
        b[i].d = fp32_to_fp16(amax / 127.0f);
        const float id = amax != 0 ? 127.0f / amax : 0.0f;
        for (int j = 0; j < kQK8_0; ++j)
            b[i].qs[j] = static_cast<int8_t>(std::nearbyint(src[j] * id));
    }
}

void quantize_row_q8_k(const float* src, void* dst, int64_t n) {
    auto* b = static_cast<BlockQ8K*>(dst);
    for (int64_t i = 0; i < n / kQKK; ++i, src += kQKK) {
        float max = 0, amax = 0;
        for (int j = 0; j < kQKK; ++j) {
            if (std::fabs(src[j]) > amax) {
                amax = std::fabs(src[j]);
                max = src[j];
            }
        }
        if (amax == 0) {
            std::memset(&b[i], 0, sizeof b[i]);
            continue;
        }
        const float iscale = -127.0f / max;
        for (int j = 0; j < kQKK; ++j)
            b[i].qs[j] = static_cast<int8_t>(std::min(127, nearest_int(iscale * src[j])));
        for (int j = 0; j < kQKK / 16; ++j) {
            int sum = 0;
            for (int l = 0; l < 16; ++l)
                sum += b[i].qs[16 * j + l];
            b[i].bsums[j] = static_cast<int16_t>(sum);
        }
        b[i].d = 1 / iscale;
    }
}

} // namespace folio
