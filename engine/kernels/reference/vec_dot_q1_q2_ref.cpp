#include "kernels/reference/vec_dot_q1_q2_ref.h"

#include "tensor/fp16.h"
#include "tensor/quant_blocks.h"
#include "tensor/quant_blocks_q1_q2.h"

namespace folio::ref {

namespace {

const BlockQ8_0* x_row(const void* x, size_t xs, int j) {
    return reinterpret_cast<const BlockQ8_0*>(static_cast<const uint8_t*>(x) + j * xs);
}

} // namespace

// Q1_0: each 128-element weight block spans four Q8_0 blocks; ±1 · q_x summed per Q8_0 block.
void dot_q1_0(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    const auto* wb = static_cast<const BlockQ1_0*>(w);
    constexpr int kSub = kQK1_0 / kQK8_0;
    for (int j = 0; j < nx; ++j) {
        const BlockQ8_0* xb = x_row(x, xs, j);
        float sum = 0;
        for (int64_t b = 0; b < k / kQK1_0; ++b) {
            const float dw = fp16_to_fp32(wb[b].d);
            for (int s = 0; s < kSub; ++s) {
                const BlockQ8_0& a = xb[b * kSub + s];
                int isum = 0;
                for (int i = 0; i < kQK8_0; ++i) {
                    const int e = s * kQK8_0 + i;
                    isum += (wb[b].qs[e / 8] >> (e % 8)) & 1 ? a.qs[i] : -a.qs[i];
                }
                sum += dw * fp16_to_fp32(a.d) * static_cast<float>(isum);
            }
        }
        out[j * os] = sum;
    }
}

// Q2_0: each 64-element weight block spans two Q8_0 blocks; (c − 1) · q_x summed per Q8_0 block.
void dot_q2_0(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    const auto* wb = static_cast<const BlockQ2_0*>(w);
    constexpr int kSub = kQK2_0 / kQK8_0;
    for (int j = 0; j < nx; ++j) {
        const BlockQ8_0* xb = x_row(x, xs, j);
        float sum = 0;
        for (int64_t b = 0; b < k / kQK2_0; ++b) {
            const float dw = fp16_to_fp32(wb[b].d);
            for (int s = 0; s < kSub; ++s) {
                const BlockQ8_0& a = xb[b * kSub + s];
                int isum = 0;
                for (int i = 0; i < kQK8_0; ++i) {
                    const int e = s * kQK8_0 + i;
                    isum += (((wb[b].qs[e / 4] >> (2 * (e % 4))) & 3) - 1) * a.qs[i];
                }
                sum += dw * fp16_to_fp32(a.d) * static_cast<float>(isum);
            }
        }
        out[j * os] = sum;
    }
}

} // namespace folio::ref
