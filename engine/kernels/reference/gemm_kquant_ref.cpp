// Scalar reference of the K-quant prefill GEMM: the arithmetic of kernels/gemm_kquant.h on the
// blocks as stored (ggml-common.h block_q2_K / block_q3_K / block_q4_K / block_q5_K /
// block_q6_K / block_iq4_xs / block_q8_K), with no packing.
#include "kernels/reference/gemm_ref.h"

#include "tensor/fp16.h"
#include "tensor/quant_blocks.h"
#include "tensor/quant_blocks_more.h"

#include <cmath>

namespace folio::ref {

namespace {

// One super-block of one weight row: w = dsc_j·q − dmn_j (Q4_K, Q5_K: mins), dsc_j·(q − 32)
// (Q6_K, L = 16), dsc_j·(q − 4) (Q3_K, L = 16), dsc_j·q − dmn_j (Q2_K, L = 16) or dsc_j·q with q
// the signed IQ4_XS level (IQ4_XS, L = 32, no mins).
struct SuperBlock {
    int sub_len = 32;
    bool mins = true;
    int offset = 0; // subtracted from q in the integer sum
    int q[256];
    float dsc[16];
    float dmn[16];
};

// Q4_K: element 64c + l (l < 32) = low nibble of qs[32c + l], 64c + 32 + l = its high nibble;
// Q5_K adds 16 when bit j of qh[l] is set for element l of sub-block j.
void decode_q4_q5_k(const uint8_t* block, bool five_bits, SuperBlock* sb) {
    uint16_t d16, dmin16;
    const uint8_t *scales, *qs, *qh = nullptr;
    if (five_bits) {
        const auto& b = *reinterpret_cast<const BlockQ5K*>(block);
        d16 = b.d, dmin16 = b.dmin, scales = b.scales, qs = b.qs, qh = b.qh;
    } else {
        const auto& b = *reinterpret_cast<const BlockQ4K*>(block);
        d16 = b.d, dmin16 = b.dmin, scales = b.scales, qs = b.qs;
    }
    sb->sub_len = 32;
    sb->mins = true;
    sb->offset = 0;
    for (int e = 0; e < 256; ++e) {
        const int c = e / 64, l = e % 32, j = e / 32;
        const int nibble = (e % 64) < 32 ? qs[32 * c + l] & 0xF : qs[32 * c + l] >> 4;
        sb->q[e] = nibble + ((qh && ((qh[l] >> j) & 1)) ? 16 : 0);
    }
    for (int j = 0; j < 8; ++j) {
        uint8_t sc, m;
        q4k_scale_min(j, scales, &sc, &m);
        sb->dsc[j] = fp16_to_fp32(d16) * sc;
        sb->dmn[j] = fp16_to_fp32(dmin16) * m;
    }
}

// Q6_K: element e = 128h + 32p + l takes the low 4 bits from ql[64h + l + 32·(p & 1)] (low
// nibble for p < 2, high for p >= 2) and the high 2 bits from bits 2p, 2p+1 of qh[32h + l].
void decode_q6_k(const uint8_t* block, SuperBlock* sb) {
    const auto& b = *reinterpret_cast<const BlockQ6K*>(block);
    sb->sub_len = 16;
    sb->mins = false;
    sb->offset = 32;
    for (int e = 0; e < 256; ++e) {
        const int h = e / 128, p = (e % 128) / 32, l = e % 32;
        const uint8_t lo = b.ql[64 * h + l + 32 * (p & 1)];
        const int low4 = p < 2 ? lo & 0xF : lo >> 4;
        const int high2 = (b.qh[32 * h + l] >> (2 * p)) & 3;
        sb->q[e] = low4 | (high2 << 4);
    }
    for (int j = 0; j < 16; ++j)
        sb->dsc[j] = fp16_to_fp32(b.d) * b.scales[j];
}

// IQ4_XS: element 32j + l of sub-block j is kvalues_iq4nl of the low nibble of qs[16j + l] (l <
// 16) or the high nibble of qs[16j + l − 16]; dsc_j = d·(ls_j − 32).
void decode_iq4_xs(const uint8_t* block, SuperBlock* sb) {
    const auto& b = *reinterpret_cast<const BlockIQ4XS*>(block);
    sb->sub_len = 32;
    sb->mins = false;
    sb->offset = 0;
    for (int e = 0; e < 256; ++e) {
        const int j = e / 32, l = e % 32;
        const uint8_t byte = b.qs[16 * j + l % 16];
        sb->q[e] = kIq4nlValues[l < 16 ? byte & 0xF : byte >> 4];
    }
    for (int j = 0; j < 8; ++j)
        sb->dsc[j] = fp16_to_fp32(b.d) * static_cast<float>(iq4xs_scale(b, j) - 32);
}

// Q3_K, Q2_K: element e = 128n + 32j + 16h + l (l < 16): 2 bits at bit 2j of qs[32n + 16h + l];
// Q3_K's level is those − 4 unless bit 4n + j of hmask[16h + l] is set, its scale code − 32;
// Q2_K's scales[e / 16] holds the scale (low nibble) and the min.
void decode_q3_k(const uint8_t* block, SuperBlock* sb) {
    const auto& b = *reinterpret_cast<const BlockQ3K*>(block);
    sb->sub_len = 16;
    sb->mins = false;
    sb->offset = 4;
    for (int e = 0; e < 256; ++e) {
        const int n = e / 128, j = (e % 128) / 32, hl = e % 32;
        const int low = (b.qs[32 * n + hl] >> (2 * j)) & 3;
        sb->q[e] = low + (((b.hmask[hl] >> (4 * n + j)) & 1) ? 4 : 0);
    }
    int8_t sc[16];
    q3k_scales(b.scales, sc);
    for (int j = 0; j < 16; ++j)
        sb->dsc[j] = fp16_to_fp32(b.d) * sc[j];
}

void decode_q2_k(const uint8_t* block, SuperBlock* sb) {
    const auto& b = *reinterpret_cast<const BlockQ2K*>(block);
    sb->sub_len = 16;
    sb->mins = true;
    sb->offset = 0;
    for (int e = 0; e < 256; ++e) {
        const int n = e / 128, j = (e % 128) / 32, hl = e % 32;
        sb->q[e] = (b.qs[32 * n + hl] >> (2 * j)) & 3;
    }
    for (int j = 0; j < 16; ++j) {
        sb->dsc[j] = fp16_to_fp32(b.d) * (b.scales[j] & 0xF);
        sb->dmn[j] = fp16_to_fp32(b.dmin) * (b.scales[j] >> 4);
    }
}

float row_dot(DType type, int64_t nsb, const uint8_t* w, const BlockQ8K* x) {
    const size_t block_bytes = type == DType::Q6_K     ? sizeof(BlockQ6K)
                               : type == DType::Q5_K   ? sizeof(BlockQ5K)
                               : type == DType::IQ4_XS ? sizeof(BlockIQ4XS)
                               : type == DType::Q3_K   ? sizeof(BlockQ3K)
                               : type == DType::Q2_K   ? sizeof(BlockQ2K)
                                                       : sizeof(BlockQ4K);
    float acc[4] = {0, 0, 0, 0};
    SuperBlock sb;
    for (int64_t s = 0; s < nsb; ++s) {
        if (type == DType::Q6_K)
            decode_q6_k(w + s * block_bytes, &sb);
        else if (type == DType::IQ4_XS)
            decode_iq4_xs(w + s * block_bytes, &sb);
        else if (type == DType::Q3_K)
            decode_q3_k(w + s * block_bytes, &sb);
        else if (type == DType::Q2_K)
            decode_q2_k(w + s * block_bytes, &sb);
        else
            decode_q4_q5_k(w + s * block_bytes, type == DType::Q5_K, &sb);
        const int len = sb.sub_len, groups = 64 / len;
        for (int i = 0; i < 4; ++i) {
            float u = 0;
            for (int g = 0; g < groups; ++g) {
                const int j = 4 * g + i;
                int sum = 0, bsum = 0;
                for (int e = len * j; e < len * (j + 1); ++e) {
                    sum += (sb.q[e] - sb.offset) * x[s].qs[e];
                    bsum += x[s].qs[e]; // = the bsums entries of the sub-block
                }
                u = std::fma(static_cast<float>(sum), sb.dsc[j], u);
                if (sb.mins)
                    u = std::fma(-sb.dmn[j], static_cast<float>(bsum), u);
            }
            acc[i] = std::fma(x[s].d, u, acc[i]);
        }
    }
    return (acc[0] + acc[2]) + (acc[1] + acc[3]);
}

} // namespace

void gemm_kquant(DType type, int64_t k, const uint8_t* w, size_t w_stride, int64_t n,
                 const uint8_t* x, size_t x_stride, int64_t n_tokens, float* y, int64_t y_stride) {
    for (int64_t t = 0; t < n_tokens; ++t) {
        const auto* xb = reinterpret_cast<const BlockQ8K*>(x + t * x_stride);
        for (int64_t r = 0; r < n; ++r)
            y[t * y_stride + r] = row_dot(type, k / 256, w + r * w_stride, xb);
    }
}

} // namespace folio::ref
