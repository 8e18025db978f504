#include "kernels/reference/gemm_ref.h"

#include "tensor/fp16.h"
#include "tensor/quant_blocks.h"

#include <cmath>

namespace folio::ref {

namespace {

// Exact Σ w·x over one block pair.
int block_sum(const BlockQ8_0& w, const BlockQ8_0& x) {
    int s = 0;
    for (int i = 0; i < kQK8_0; ++i)
        s += w.qs[i] * x.qs[i];
    return s;
}

float row_dot(int64_t nb, const BlockQ8_0* w, const BlockQ8_0* x) {
    // Four accumulators over the full groups of four blocks (accumulator i: blocks 4g + i),
    // each step one product of the scales and one fused multiply-add.
    float acc[4] = {0, 0, 0, 0};
    int64_t b = 0;
    for (; b + 4 <= nb; b += 4)
        for (int i = 0; i < 4; ++i) {
            const float d = fp16_to_fp32(w[b + i].d) * fp16_to_fp32(x[b + i].d);
            acc[i] = std::fma(d, static_cast<float>(block_sum(w[b + i], x[b + i])), acc[i]);
        }
    float tail = 0;
    for (; b < nb; ++b) {
        const float d = fp16_to_fp32(w[b].d) * fp16_to_fp32(x[b].d);
        tail = std::fma(d, static_cast<float>(block_sum(w[b], x[b])), tail);
    }
    return ((acc[0] + acc[2]) + (acc[1] + acc[3])) + tail;
}

} // namespace

void gemm_q8_0(int64_t k, const uint8_t* w, size_t w_stride, int64_t n, const uint8_t* x,
               size_t x_stride, int64_t n_tokens, float* y, int64_t y_stride) {
    const int64_t nb = k / kQK8_0;
    for (int64_t t = 0; t < n_tokens; ++t) {
        const auto* xb = reinterpret_cast<const BlockQ8_0*>(x + t * x_stride);
        for (int64_t r = 0; r < n; ++r)
            y[t * y_stride + r] =
                row_dot(nb, reinterpret_cast<const BlockQ8_0*>(w + r * w_stride), xb);
    }
}

} // namespace folio::ref
