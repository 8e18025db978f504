// Reference row conversions of the float types, Q8_0, Q4_0 and MXFP4 (ggml/src/ggml-quants.c):
// dequantizers and the weight quantizers llama.cpp's *_ref functions define.
#include "tensor/fp16.h"
#include "tensor/quant_blocks.h"
#include "tensor/quant_rows.h"
#include "tensor/quantize.h"

#include <algorithm>
#include <cmath>

namespace folio {

void dequantize_row_f32(const void* src, float* y, int64_t n) {
    std::memcpy(y, src, static_cast<size_t>(n) * sizeof(float));
}

void dequantize_row_f16(const void* src, float* y, int64_t n) {
    const auto* h = static_cast<const uint16_t*>(src);
    for (int64_t i = 0; i < n; ++i)
        y[i] = fp16_to_fp32(h[i]);
}

void dequantize_row_bf16(const void* src, float* y, int64_t n) {
    const auto* h = static_cast<const uint16_t*>(src);
    for (int64_t i = 0; i < n; ++i)
        y[i] = bf16_to_fp32(h[i]);
}

void quantize_row_f32(const float* x, void* dst, int64_t n) {
    std::memcpy(dst, x, static_cast<size_t>(n) * sizeof(float));
}

void quantize_row_f16(const float* x, void* dst, int64_t n) {
    auto* h = static_cast<uint16_t*>(dst);
    for (int64_t i = 0; i < n; ++i)
        h[i] = fp32_to_fp16(x[i]);
}

void quantize_row_bf16(const float* x, void* dst, int64_t n) {
    auto* h = static_cast<uint16_t*>(dst);
    for (int64_t i = 0; i < n; ++i)
        h[i] = fp32_to_bf16(x[i]);
}

void dequantize_row_q8_0(const void* src, float* y, int64_t n) {
    const auto* b = static_cast<const BlockQ8_0*>(src);
    const int64_t nb = n / kQK8_0;
    for (int64_t i = 0; i < nb; ++i, y += kQK8_0) {
        const float d = fp16_to_fp32(b[i].d);
        for (int j = 0; j < kQK8_0; ++j)
            y[j] = b[i].qs[j] * d;
    }
}

void dequantize_row_q4_0(const void* src, float* y, int64_t n) {
    const auto* b = static_cast<const BlockQ4_0*>(src);
    const int64_t nb = n / kQK4_0;
    for (int64_t i = 0; i < nb; ++i, y += kQK4_0) {
        const float d = fp16_to_fp32(b[i].d);
        for (int j = 0; j < kQK4_0 / 2; ++j) {
            y[j] = ((b[i].qs[j] & 0xF) - 8) * d;
            y[j + 16] = ((b[i].qs[j] >> 4) - 8) * d;
        }
    }
}

void dequantize_row_mxfp4(const void* src, float* y, int64_t n) {
    const auto* b = static_cast<const BlockMxfp4*>(src);
    const int64_t nb = n / kQKMxfp4;
    for (int64_t i = 0; i < nb; ++i, y += kQKMxfp4) {
        const float d = e8m0_to_fp32_half(b[i].e);
        for (int j = 0; j < kQKMxfp4 / 2; ++j) {
            y[j] = kMxfp4Values[b[i].qs[j] & 0xF] * d;
            y[j + 16] = kMxfp4Values[b[i].qs[j] >> 4] * d;
        }
    }
}

void quantize_row_q8_0(const float* x, void* dst, int64_t n) {
    auto* b = static_cast<BlockQ8_0*>(dst);
    const int64_t nb = n / kQK8_0;
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

void quantize_row_q4_0(const float* x, void* dst, int64_t n) {
    auto* b = static_cast<BlockQ4_0*>(dst);
    const int64_t nb = n / kQK4_0;
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

// Nearest doubled-E2M1 value, strict '<' scan (ties to the lower index).
static int mxfp4_best_index(float x, float d) {
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

void quantize_row_mxfp4(const float* x, void* dst, int64_t n) {
    auto* b = static_cast<BlockMxfp4*>(dst);
    const int64_t nb = n / kQKMxfp4;
    for (int64_t i = 0; i < nb; ++i, x += kQKMxfp4) {
        float amax = 0;
        for (int j = 0; j < kQKMxfp4; ++j)
            amax = std::max(amax, std::fabs(x[j]));
        // (uint8)(floor(log2(amax)) - 2 + 127) without range clamping. The float->uint8
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

} // namespace folio
