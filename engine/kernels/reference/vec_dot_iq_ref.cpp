#include "kernels/reference/vec_dot_iq_ref.h"

#include "tensor/iq_blocks.h"
#include "tensor/iq_decode.h"
#include "tensor/quant_blocks.h"

namespace folio::ref {

namespace {

// Σ_blocks d_w·d_x·Σ_g scale_g·Σ q·x, times the type's factor. The int32 sum is exact: at most
// 256 · 62 · 127 · 31 < 2^31 (IQ1: 256 · 9 · 127 · 15).
template <IqDecodeFn Decode, size_t BlockBytes, int MultNum, int MultDen>
void dot_iq(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    const auto* wb = static_cast<const uint8_t*>(w);
    const int64_t nb = k / kQKIq;
    float sums[4] = {0, 0, 0, 0};
    IqBlockInts blk;
    for (int64_t b = 0; b < nb; ++b) {
        Decode(wb + b * BlockBytes, &blk);
        for (int j = 0; j < nx; ++j) {
            const auto* xb =
                reinterpret_cast<const BlockQ8K*>(static_cast<const uint8_t*>(x) + j * xs) + b;
            int32_t isum = 0;
            for (int g = 0; g < 32; ++g) {
                int32_t gsum = 0;
                for (int i = 8 * g; i < 8 * g + 8; ++i)
                    gsum += blk.q[i] * xb->qs[i];
                isum += blk.scale[g] * gsum;
            }
            sums[j] += blk.d * xb->d * static_cast<float>(isum);
        }
    }
    const float mult = static_cast<float>(MultNum) / static_cast<float>(MultDen);
    for (int j = 0; j < nx; ++j)
        out[j * os] = sums[j] * mult;
}

} // namespace

void dot_iq2_xxs(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out,
                 int64_t os) {
    dot_iq<decode_iq2_xxs, sizeof(BlockIq2xxs), 1, 8>(k, w, x, xs, nx, out, os);
}
void dot_iq2_xs(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out,
                int64_t os) {
    dot_iq<decode_iq2_xs, sizeof(BlockIq2xs), 1, 8>(k, w, x, xs, nx, out, os);
}
void dot_iq2_s(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    dot_iq<decode_iq2_s, sizeof(BlockIq2s), 1, 8>(k, w, x, xs, nx, out, os);
}
void dot_iq3_xxs(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out,
                 int64_t os) {
    dot_iq<decode_iq3_xxs, sizeof(BlockIq3xxs), 1, 4>(k, w, x, xs, nx, out, os);
}
void dot_iq3_s(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    dot_iq<decode_iq3_s, sizeof(BlockIq3s), 1, 1>(k, w, x, xs, nx, out, os);
}
void dot_iq1_s(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    dot_iq<decode_iq1_s, sizeof(BlockIq1s), 1, 8>(k, w, x, xs, nx, out, os);
}
void dot_iq1_m(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    dot_iq<decode_iq1_m, sizeof(BlockIq1m), 1, 8>(k, w, x, xs, nx, out, os);
}
void dot_tq1_0(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    dot_iq<decode_tq1_0, sizeof(BlockTq1_0), 1, 1>(k, w, x, xs, nx, out, os);
}
void dot_tq2_0(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    dot_iq<decode_tq2_0, sizeof(BlockTq2_0), 1, 1>(k, w, x, xs, nx, out, os);
}

} // namespace folio::ref
