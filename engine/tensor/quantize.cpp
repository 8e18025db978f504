#include "tensor/quantize.h"

#include "tensor/fp16.h"
#include "tensor/quant_blocks.h"
#include "tensor/quant_blocks_more.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace folio {

int nearest_int(float x) {
    const float v = x + 12582912.0f;
    int32_t i;
    std::memcpy(&i, &v, sizeof i);
    return (i & 0x007FFFFF) - 0x00400000;
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

void quantize_row_q8_1_act(const float* src, void* dst, int64_t n) {
    auto* b = static_cast<BlockQ8_1*>(dst);
    for (int64_t i = 0; i < n / 32; ++i, src += 32) {
        float amax = 0;
        for (int j = 0; j < 32; ++j)
            amax = std::max(amax, std::fabs(src[j]));
        const float d = amax / 127.0f;
        const float id = amax != 0 ? 127.0f / amax : 0.0f;
        int sum = 0;
        for (int j = 0; j < 32; ++j) {
            b[i].qs[j] = static_cast<int8_t>(std::nearbyint(src[j] * id));
            sum += b[i].qs[j];
        }
        b[i].d = fp32_to_fp16(d);
        b[i].s = fp32_to_fp16(d * static_cast<float>(sum));
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
