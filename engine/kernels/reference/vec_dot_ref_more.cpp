#include "kernels/reference/vec_dot_ref_more.h"

#include "tensor/fp16.h"
#include "tensor/quant_blocks.h"
#include "tensor/quant_blocks_more.h"

namespace folio::ref {

namespace {

template <typename Block> const Block* x_row(const void* x, size_t xs, int j) {
    return reinterpret_cast<const Block*>(static_cast<const uint8_t*>(x) + j * xs);
}

// 32-element weight blocks: q(b, i) gives the integer weight of element i of block b; the sum per
// block is (d_w·d_x)·Σ q·q_x, plus m_w·s_x for the Q8_1 pairs (s_x = d_x·Σ q_x).
template <typename XBlock, typename WBlock, typename Quant, typename Extra>
void dot_blocks32(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out,
                  int64_t os, Quant q, Extra extra) {
    const auto* wb = static_cast<const WBlock*>(w);
    for (int j = 0; j < nx; ++j) {
        const auto* xb = x_row<XBlock>(x, xs, j);
        float sum = 0;
        for (int64_t b = 0; b < k / 32; ++b) {
            int isum = 0;
            for (int i = 0; i < 32; ++i)
                isum += q(wb[b], i) * xb[b].qs[i];
            sum += fp16_to_fp32(wb[b].d) * fp16_to_fp32(xb[b].d) * static_cast<float>(isum) +
                   extra(wb[b], xb[b]);
        }
        out[j * os] = sum;
    }
}

inline int nibble(const uint8_t* qs, int i) {
    return i < 16 ? qs[i] & 0xF : qs[i - 16] >> 4;
}

struct NoExtra {
    template <typename W, typename X> float operator()(const W&, const X&) const { return 0.0f; }
};
struct MinTimesSum {
    template <typename W, typename X> float operator()(const W& w, const X& x) const {
        return fp16_to_fp32(w.m) * fp16_to_fp32(x.s);
    }
};

} // namespace

void dot_q4_1(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    dot_blocks32<BlockQ8_1, BlockQ4_1>(
        k, w, x, xs, nx, out, os, [](const BlockQ4_1& b, int i) { return nibble(b.qs, i); },
        MinTimesSum{});
}

void dot_q5_0(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    dot_blocks32<BlockQ8_0, BlockQ5_0>(
        k, w, x, xs, nx, out, os,
        [](const BlockQ5_0& b, int i) { return nibble(b.qs, i) + 16 * q5_high_bit(b.qh, i) - 16; },
        NoExtra{});
}

void dot_q5_1(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    dot_blocks32<BlockQ8_1, BlockQ5_1>(
        k, w, x, xs, nx, out, os,
        [](const BlockQ5_1& b, int i) { return nibble(b.qs, i) + 16 * q5_high_bit(b.qh, i); },
        MinTimesSum{});
}

void dot_iq4_nl(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out,
                int64_t os) {
    dot_blocks32<BlockQ8_0, BlockIQ4NL>(
        k, w, x, xs, nx, out, os,
        [](const BlockIQ4NL& b, int i) { return static_cast<int>(kIq4nlValues[nibble(b.qs, i)]); },
        NoExtra{});
}

// Q2_K · Q8_K per super-block: d_x·d·Σ_s sc_s·Σ q·q_x − d_x·dmin·Σ_s m_s·bsum_s.
void dot_q2_k(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    const auto* wb = static_cast<const BlockQ2K*>(w);
    for (int j = 0; j < nx; ++j) {
        const auto* xb = x_row<BlockQ8K>(x, xs, j);
        float sum = 0;
        for (int64_t b = 0; b < k / kQKK; ++b) {
            int isum = 0, msum = 0;
            for (int s = 0; s < 16; ++s) {
                // Sub-block s: chunk s/8, shift 2·((s%8)/2), bytes 16·(s%2) .. +15.
                const uint8_t* q = wb[b].qs + 32 * (s / 8) + 16 * (s % 2);
                const int shift = 2 * ((s % 8) / 2);
                int sub = 0;
                for (int l = 0; l < 16; ++l)
                    sub += ((q[l] >> shift) & 3) * xb[b].qs[16 * s + l];
                isum += (wb[b].scales[s] & 0xF) * sub;
                msum += (wb[b].scales[s] >> 4) * xb[b].bsums[s];
            }
            sum += xb[b].d * fp16_to_fp32(wb[b].d) * static_cast<float>(isum) -
                   xb[b].d * fp16_to_fp32(wb[b].dmin) * static_cast<float>(msum);
        }
        out[j * os] = sum;
    }
}

// Q3_K · Q8_K: d_x·d·Σ_s (sc_s − 32)·Σ q·q_x with q = 2 low bits − (hmask bit clear ? 4 : 0).
void dot_q3_k(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    const auto* wb = static_cast<const BlockQ3K*>(w);
    for (int j = 0; j < nx; ++j) {
        const auto* xb = x_row<BlockQ8K>(x, xs, j);
        float sum = 0;
        for (int64_t b = 0; b < k / kQKK; ++b) {
            int8_t sc[16];
            q3k_scales(wb[b].scales, sc);
            int isum = 0;
            for (int s = 0; s < 16; ++s) {
                const uint8_t* q = wb[b].qs + 32 * (s / 8) + 16 * (s % 2);
                const uint8_t* hm = wb[b].hmask + 16 * (s % 2);
                const int shift = 2 * ((s % 8) / 2), bit = s / 2;
                int sub = 0;
                for (int l = 0; l < 16; ++l) {
                    const int v = ((q[l] >> shift) & 3) - (((hm[l] >> bit) & 1) ? 0 : 4);
                    sub += v * xb[b].qs[16 * s + l];
                }
                isum += sc[s] * sub;
            }
            sum += xb[b].d * fp16_to_fp32(wb[b].d) * static_cast<float>(isum);
        }
        out[j * os] = sum;
    }
}

// Q5_K · Q8_K: as Q4_K with 5-bit q.
void dot_q5_k(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out, int64_t os) {
    const auto* wb = static_cast<const BlockQ5K*>(w);
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
                for (int l = 0; l < 32; ++l) {
                    const int v = ((q[l] >> shift) & 0xF) + 16 * ((wb[b].qh[l] >> s) & 1);
                    sub += v * xb[b].qs[32 * s + l];
                }
                isum += sc * sub;
                msum += m * (xb[b].bsums[2 * s] + xb[b].bsums[2 * s + 1]);
            }
            sum += xb[b].d * fp16_to_fp32(wb[b].d) * static_cast<float>(isum) -
                   xb[b].d * fp16_to_fp32(wb[b].dmin) * static_cast<float>(msum);
        }
        out[j * os] = sum;
    }
}

// IQ4_XS · Q8_K: d_x·d·Σ_ib (ls_ib − 32)·Σ kvalues[q]·q_x.
void dot_iq4_xs(int64_t k, const void* w, const void* x, size_t xs, int nx, float* out,
                int64_t os) {
    const auto* wb = static_cast<const BlockIQ4XS*>(w);
    for (int j = 0; j < nx; ++j) {
        const auto* xb = x_row<BlockQ8K>(x, xs, j);
        float sum = 0;
        for (int64_t b = 0; b < k / kQKK; ++b) {
            int isum = 0;
            for (int ib = 0; ib < 8; ++ib) {
                const uint8_t* qs = wb[b].qs + 16 * ib;
                int sub = 0;
                for (int i = 0; i < 32; ++i)
                    sub += kIq4nlValues[nibble(qs, i)] * xb[b].qs[32 * ib + i];
                isum += (iq4xs_scale(wb[b], ib) - 32) * sub;
            }
            sum += xb[b].d * fp16_to_fp32(wb[b].d) * static_cast<float>(isum);
        }
        out[j * os] = sum;
    }
}

} // namespace folio::ref
