#include "kernels/reference/vec_dot_ref.h"

#include "tensor/fp16.h"
#include "tensor/quant_blocks.h"

namespace folio::ref {

namespace {

template <typename Elem, typename Convert>
void dot_float(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os,
               Convert convert) {
    const auto* wr = static_cast<const Elem*>(w);
    for (int j = 0; j < nx; ++j) {
        const auto* xr = reinterpret_cast<const float*>(static_cast<const uint8_t*>(x) + j * xs);
        float sum = 0;
        for (int64_t i = 0; i < k; ++i)
            sum += convert(wr[i]) * xr[i];
        out[j * os] = sum;
    }
}

template <typename Block> const Block* x_row(const void* x, size_t xs, int j) {
    return reinterpret_cast<const Block*>(static_cast<const uint8_t*>(x) + j * xs);
}

} // namespace

void dot_f32(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    dot_float<float>(k, w, x, xs, nx, out, os, [](float v) { return v; });
}

void dot_f16(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    dot_float<uint16_t>(k, w, x, xs, nx, out, os, [](uint16_t v) { return fp16_to_fp32(v); });
}

void dot_bf16(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    dot_float<uint16_t>(k, w, x, xs, nx, out, os, [](uint16_t v) { return bf16_to_fp32(v); });
}

// Q8_0 weights · Q8_0 activations: Σ_blocks (d_w·d_x)·Σ qw·qx.
void dot_q8_0(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    const auto* wb = static_cast<const BlockQ8_0*>(w);
    for (int j = 0; j < nx; ++j) {
        const auto* xb = x_row<BlockQ8_0>(x, xs, j);
        float sum = 0;
        for (int64_t b = 0; b < k / kQK8_0; ++b) {
            int isum = 0;
            for (int i = 0; i < kQK8_0; ++i)
                isum += wb[b].qs[i] * xb[b].qs[i];
            sum += fp16_to_fp32(wb[b].d) * fp16_to_fp32(xb[b].d) * static_cast<float>(isum);
        }
        out[j * os] = sum;
    }
}

// Q4_0 weights (nibble - 8) · Q8_0 activations.
void dot_q4_0(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    const auto* wb = static_cast<const BlockQ4_0*>(w);
    for (int j = 0; j < nx; ++j) {
        const auto* xb = x_row<BlockQ8_0>(x, xs, j);
        float sum = 0;
        for (int64_t b = 0; b < k / kQK4_0; ++b) {
            int isum = 0;
            for (int i = 0; i < 16; ++i) {
                isum += ((wb[b].qs[i] & 0xF) - 8) * xb[b].qs[i];
                isum += ((wb[b].qs[i] >> 4) - 8) * xb[b].qs[i + 16];
            }
            sum += fp16_to_fp32(wb[b].d) * fp16_to_fp32(xb[b].d) * static_cast<float>(isum);
        }
        out[j * os] = sum;
    }
}

// MXFP4 weights (doubled E2M1 table, half E8M0 scale) · Q8_0 activations.
void dot_mxfp4(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    const auto* wb = static_cast<const BlockMxfp4*>(w);
    for (int j = 0; j < nx; ++j) {
        const auto* xb = x_row<BlockQ8_0>(x, xs, j);
        float sum = 0;
        for (int64_t b = 0; b < k / kQKMxfp4; ++b) {
            int isum = 0;
            for (int i = 0; i < 16; ++i) {
                isum += kMxfp4Values[wb[b].qs[i] & 0xF] * xb[b].qs[i];
                isum += kMxfp4Values[wb[b].qs[i] >> 4] * xb[b].qs[i + 16];
            }
            sum += e8m0_to_fp32_half(wb[b].e) * fp16_to_fp32(xb[b].d) * static_cast<float>(isum);
        }
        out[j * os] = sum;
    }
}

// Q4_K weights · Q8_K activations, per super-block:
//   d_x·d·Σ_j sc_j·Σ_l q·qx  −  d_x·dmin·Σ_j m_j·(bsums of sub-block j)
void dot_q4_k(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    const auto* wb = static_cast<const BlockQ4K*>(w);
    for (int j = 0; j < nx; ++j) {
        const auto* xb = x_row<BlockQ8K>(x, xs, j);
        float sum = 0;
        for (int64_t b = 0; b < k / kQKK; ++b) {
            int isum = 0, msum = 0;
            for (int s = 0; s < 8; ++s) {
                uint8_t sc, m;
                q4k_scale_min(s, wb[b].scales, &sc, &m);
                const uint8_t* q = wb[b].qs + 32 * (s / 2);
                const int shift = (s & 1) * 4;
                int sub = 0;
                for (int l = 0; l < 32; ++l)
                    sub += ((q[l] >> shift) & 0xF) * xb[b].qs[32 * s + l];
                isum += sc * sub;
                msum += m * (xb[b].bsums[2 * s] + xb[b].bsums[2 * s + 1]);
            }
            const float d = xb[b].d * fp16_to_fp32(wb[b].d);
            const float dmin = xb[b].d * fp16_to_fp32(wb[b].dmin);
            sum += d * static_cast<float>(isum) - dmin * static_cast<float>(msum);
        }
        out[j * os] = sum;
    }
}

// Q6_K weights · Q8_K activations: d_x·d·Σ_{16 sub-blocks} scale·Σ (q − 32)·qx.
void dot_q6_k(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    const auto* wb = static_cast<const BlockQ6K*>(w);
    for (int j = 0; j < nx; ++j) {
        const auto* xb = x_row<BlockQ8K>(x, xs, j);
        float sum = 0;
        for (int64_t b = 0; b < k / kQKK; ++b) {
            int8_t q[kQKK];
            const uint8_t* ql = wb[b].ql;
            const uint8_t* qh = wb[b].qh;
            for (int n = 0; n < kQKK; n += 128, ql += 64, qh += 32) {
                for (int l = 0; l < 32; ++l) {
                    q[n + l] = static_cast<int8_t>(((ql[l] & 0xF) | ((qh[l] & 3) << 4)) - 32);
                    q[n + l + 32] =
                        static_cast<int8_t>(((ql[l + 32] & 0xF) | (((qh[l] >> 2) & 3) << 4)) - 32);
                    q[n + l + 64] =
                        static_cast<int8_t>(((ql[l] >> 4) | (((qh[l] >> 4) & 3) << 4)) - 32);
                    q[n + l + 96] =
                        static_cast<int8_t>(((ql[l + 32] >> 4) | (((qh[l] >> 6) & 3) << 4)) - 32);
                }
            }
            int isum = 0;
            for (int s = 0; s < 16; ++s) {
                int sub = 0;
                for (int l = 0; l < 16; ++l)
                    sub += q[16 * s + l] * xb[b].qs[16 * s + l];
                isum += wb[b].scales[s] * sub;
            }
            sum += xb[b].d * fp16_to_fp32(wb[b].d) * static_cast<float>(isum);
        }
        out[j * os] = sum;
    }
}

} // namespace folio::ref
