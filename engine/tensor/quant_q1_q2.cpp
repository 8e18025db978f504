// Reference row conversions of Q1_0 and Q2_0 (tensor/quant_blocks_q1_q2.h has the layouts and
// where they were read from). The quantizers reproduce llama-quantize's files of the conformance
// set byte for byte (tests/engine/tensor/test_q1_q2.cpp): Q1_0's scale is the mean magnitude
// summed in float in element order, Q2_0's the largest magnitude, its codes x·(1/max) rounded
// half away from zero.
#include "tensor/fp16.h"
#include "tensor/quant_blocks_q1_q2.h"
#include "tensor/quant_rows.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace folio {

void dequantize_row_q1_0(const void* src, float* y, int64_t n) {
    const auto* b = static_cast<const BlockQ1_0*>(src);
    for (int64_t i = 0; i < n / kQK1_0; ++i, y += kQK1_0) {
        const float d = fp16_to_fp32(b[i].d);
        for (int j = 0; j < kQK1_0; ++j)
            y[j] = (b[i].qs[j / 8] >> (j % 8)) & 1 ? d : -d;
    }
}

void dequantize_row_q2_0(const void* src, float* y, int64_t n) {
    const auto* b = static_cast<const BlockQ2_0*>(src);
    for (int64_t i = 0; i < n / kQK2_0; ++i, y += kQK2_0) {
        const float d = fp16_to_fp32(b[i].d);
        for (int j = 0; j < kQK2_0; ++j)
            y[j] = static_cast<float>(((b[i].qs[j / 4] >> (2 * (j % 4))) & 3) - 1) * d;
    }
}

void quantize_row_q1_0(const float* x, void* dst, int64_t n) {
    auto* b = static_cast<BlockQ1_0*>(dst);
    for (int64_t i = 0; i < n / kQK1_0; ++i, x += kQK1_0) {
        float sum = 0;
        for (int j = 0; j < kQK1_0; ++j)
            sum += std::fabs(x[j]);
        b[i].d = fp32_to_fp16(sum / kQK1_0);
        std::memset(b[i].qs, 0, sizeof b[i].qs);
        for (int j = 0; j < kQK1_0; ++j)
            if (x[j] >= 0)
                b[i].qs[j / 8] |= static_cast<uint8_t>(1u << (j % 8));
    }
}

void quantize_row_q2_0(const float* x, void* dst, int64_t n) {
    auto* b = static_cast<BlockQ2_0*>(dst);
    for (int64_t i = 0; i < n / kQK2_0; ++i, x += kQK2_0) {
        float amax = 0;
        for (int j = 0; j < kQK2_0; ++j)
            amax = std::max(amax, std::fabs(x[j]));
        const float id = amax != 0 ? 1.0f / amax : 0.0f;
        b[i].d = fp32_to_fp16(amax);
        std::memset(b[i].qs, 0, sizeof b[i].qs);
        for (int j = 0; j < kQK2_0; ++j) {
            const int c = std::clamp(static_cast<int>(std::roundf(x[j] * id)), -1, 2) + 1;
            b[i].qs[j / 4] |= static_cast<uint8_t>(c << (2 * (j % 4)));
        }
    }
}

} // namespace folio
