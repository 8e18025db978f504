// Packers and entry point of the K-quant prefill GEMM (layouts: kernels/gemm_kquant.h).
#include "kernels/gemm_kquant.h"

#include "kernels/kernel_table.h"
#include "kernels/matmul.h"
#include "tensor/fp16.h"
#include "tensor/quant_blocks.h"
#include "tensor/quant_blocks_more.h"

#include <cstring>

namespace folio {

namespace {

// One super-block unpacked: q[256] unsigned, dsc / dmn per sub-block (gemm_kquant.h's form).
struct UnpackedSuperBlock {
    uint8_t q[kQKK];
    float dsc[16];
    float dmn[16];
};

// ggml-common.h block_q4_K: sub-block j = low (j even) or high (j odd) nibbles of qs[32·(j/2) ..].
void unpack_q4_k(const uint8_t* block, UnpackedSuperBlock* u) {
    const auto& b = *reinterpret_cast<const BlockQ4K*>(block);
    const float d = fp16_to_fp32(b.d), dmin = fp16_to_fp32(b.dmin);
    for (int j = 0; j < 8; ++j) {
        uint8_t sc, m;
        q4k_scale_min(j, b.scales, &sc, &m);
        u->dsc[j] = d * static_cast<float>(sc);
        u->dmn[j] = dmin * static_cast<float>(m);
        const int shift = 4 * (j & 1);
        for (int l = 0; l < 32; ++l)
            u->q[32 * j + l] = static_cast<uint8_t>((b.qs[32 * (j / 2) + l] >> shift) & 0xF);
    }
}

// block_q5_K: as Q4_K plus bit j of qh[l] as 16 for element l of sub-block j.
void unpack_q5_k(const uint8_t* block, UnpackedSuperBlock* u) {
    const auto& b = *reinterpret_cast<const BlockQ5K*>(block);
    const float d = fp16_to_fp32(b.d), dmin = fp16_to_fp32(b.dmin);
    for (int j = 0; j < 8; ++j) {
        uint8_t sc, m;
        q4k_scale_min(j, b.scales, &sc, &m);
        u->dsc[j] = d * static_cast<float>(sc);
        u->dmn[j] = dmin * static_cast<float>(m);
        const int shift = 4 * (j & 1);
        for (int l = 0; l < 32; ++l)
            u->q[32 * j + l] = static_cast<uint8_t>(((b.qs[32 * (j / 2) + l] >> shift) & 0xF) |
                                                    (((b.qh[l] >> j) & 1) << 4));
    }
}

// ggml-common.h block_q6_K: per half n of 128 elements, ql[64n ..] holds the low 4 bits of elements
// l and l + 64 (low / high nibble of ql[l]) and l + 32, l + 96 (of ql[l + 32]); qh[32n + l] the
// 2 high bits of l, l + 32, l + 64, l + 96 at bits 0, 2, 4, 6. w = d·sc·(q − 32).
void unpack_q6_k(const uint8_t* block, UnpackedSuperBlock* u) {
    const auto& b = *reinterpret_cast<const BlockQ6K*>(block);
    const float d = fp16_to_fp32(b.d);
    for (int n = 0; n < 2; ++n) {
        const uint8_t* ql = b.ql + 64 * n;
        const uint8_t* qh = b.qh + 32 * n;
        uint8_t* q = u->q + 128 * n;
        for (int l = 0; l < 32; ++l) {
            q[l] = static_cast<uint8_t>((ql[l] & 0xF) | ((qh[l] & 3) << 4));
            q[l + 32] = static_cast<uint8_t>((ql[l + 32] & 0xF) | (((qh[l] >> 2) & 3) << 4));
            q[l + 64] = static_cast<uint8_t>((ql[l] >> 4) | (((qh[l] >> 4) & 3) << 4));
            q[l + 96] = static_cast<uint8_t>((ql[l + 32] >> 4) | (((qh[l] >> 6) & 3) << 4));
        }
    }
    for (int j = 0; j < 16; ++j) {
        u->dsc[j] = d * static_cast<float>(b.scales[j]);
        u->dmn[j] = 0.0f; // the −32 is applied in the integer sums
    }
}

// block_iq4_xs: sub-block j's element l < 16 = low nibble of qs[16j + l], l >= 16 = high nibble
// of qs[16j + l − 16]; the level kvalues_iq4nl[nibble] is stored + 128 (unsigned for vpdpbusd; the
// integer sums start at −128·B_j).
void unpack_iq4_xs(const uint8_t* block, UnpackedSuperBlock* u) {
    const auto& b = *reinterpret_cast<const BlockIQ4XS*>(block);
    const float d = fp16_to_fp32(b.d);
    for (int j = 0; j < 8; ++j) {
        u->dsc[j] = d * static_cast<float>(iq4xs_scale(b, j) - 32);
        u->dmn[j] = 0.0f;
        for (int l = 0; l < 16; ++l) {
            const uint8_t byte = b.qs[16 * j + l];
            u->q[32 * j + l] = static_cast<uint8_t>(kIq4nlValues[byte & 0xF] + 128);
            u->q[32 * j + 16 + l] = static_cast<uint8_t>(kIq4nlValues[byte >> 4] + 128);
        }
    }
}

// block_q3_K / block_q2_K: element e = 128n + 32j + 16h + l (l < 16) takes its 2 low bits from
// bits 2j of qs[32n + 16h + l]; sub-block e / 16. Q3_K adds 4 when bit 4n + j of hmask[16h + l] is
// set (q − 4 is the level: the −4 is applied in the integer sums); its scales are 6-bit − 32.
// Q2_K's scales[j] holds sc_j (low nibble) and m_j.
void unpack_q3_k(const uint8_t* block, UnpackedSuperBlock* u) {
    const auto& b = *reinterpret_cast<const BlockQ3K*>(block);
    const float d = fp16_to_fp32(b.d);
    for (int e = 0; e < 256; ++e) {
        const int n = e / 128, j = (e % 128) / 32, hl = e % 32;
        const int low = (b.qs[32 * n + hl] >> (2 * j)) & 3;
        const int high = (b.hmask[hl] >> (4 * n + j)) & 1;
        u->q[e] = static_cast<uint8_t>(low | high << 2);
    }
    int8_t sc[16];
    q3k_scales(b.scales, sc);
    for (int j = 0; j < 16; ++j) {
        u->dsc[j] = d * static_cast<float>(sc[j]);
        u->dmn[j] = 0.0f;
    }
}

void unpack_q2_k(const uint8_t* block, UnpackedSuperBlock* u) {
    const auto& b = *reinterpret_cast<const BlockQ2K*>(block);
    const float d = fp16_to_fp32(b.d), dmin = fp16_to_fp32(b.dmin);
    for (int e = 0; e < 256; ++e) {
        const int n = e / 128, j = (e % 128) / 32, hl = e % 32;
        u->q[e] = static_cast<uint8_t>((b.qs[32 * n + hl] >> (2 * j)) & 3);
    }
    for (int j = 0; j < 16; ++j) {
        u->dsc[j] = d * static_cast<float>(b.scales[j] & 0xF);
        u->dmn[j] = dmin * static_cast<float>(b.scales[j] >> 4);
    }
}

using UnpackFn = void (*)(const uint8_t*, UnpackedSuperBlock*);

UnpackFn unpacker(DType type) {
    switch (type) {
    case DType::Q4_K:
        return unpack_q4_k;
    case DType::Q5_K:
        return unpack_q5_k;
    case DType::Q6_K:
        return unpack_q6_k;
    case DType::IQ4_XS:
        return unpack_iq4_xs;
    case DType::Q3_K:
        return unpack_q3_k;
    case DType::Q2_K:
        return unpack_q2_k;
    default:
        return nullptr;
    }
}

#if defined(FOLIO_X86)
void pack_weights_avx512(const TensorView& w, int64_t n0, uint8_t* dst) {
    const uint8_t* rows[kGemmRows];
    for (int64_t r = 0; r < kGemmRows; ++r)
        rows[r] = n0 + r < w.ne[1] ? w.row(n0 + r) : nullptr;
    avx512::gemm_pack_kquant_weights(w.type, rows, w.ne[0], dst);
}

void pack_weights_avx2(const TensorView& w, int64_t n0, uint8_t* dst) {
    const uint8_t* rows[kGemmRows];
    for (int64_t r = 0; r < kGemmRows; ++r)
        rows[r] = n0 + r < w.ne[1] ? w.row(n0 + r) : nullptr;
    avx2::gemm_pack_kquant_weights(w.type, rows, w.ne[0], dst);
}
#endif

void pack_activations_l32(const uint8_t* act_row, int64_t k, uint8_t* dst) {
    gemm_pack_q8_k_activations(act_row, k, 32, 0, dst);
}
void pack_activations_l16(const uint8_t* act_row, int64_t k, uint8_t* dst) {
    gemm_pack_q8_k_activations(act_row, k, 16, 32, dst);
}
void pack_activations_l32_offset(const uint8_t* act_row, int64_t k, uint8_t* dst) {
    gemm_pack_q8_k_activations(act_row, k, 32, 128, dst);
}
void pack_activations_l16_offset4(const uint8_t* act_row, int64_t k, uint8_t* dst) {
    gemm_pack_q8_k_activations(act_row, k, 16, 4, dst);
}
void pack_activations_l16_mins(const uint8_t* act_row, int64_t k, uint8_t* dst) {
    gemm_pack_q8_k_activations(act_row, k, 16, 0, dst);
}

// The kernels of the VNNI GEMM (gemm_kquant_avx512.cpp) take these; Q3_K and Q2_K run the AVX2
// ones everywhere.
bool avx512_kquant_type(DType type) {
    return type == DType::Q4_K || type == DType::Q5_K || type == DType::Q6_K ||
           type == DType::IQ4_XS;
}

} // namespace

int kquant_gemm_sub_len(DType type) {
    switch (type) {
    case DType::Q4_K:
    case DType::Q5_K:
    case DType::IQ4_XS:
        return 32;
    case DType::Q6_K:
    case DType::Q3_K:
    case DType::Q2_K:
        return 16;
    default:
        return 0;
    }
}

int kquant_int_offset(DType type) {
    switch (type) {
    case DType::Q6_K:
        return 32;
    case DType::IQ4_XS:
        return 128;
    case DType::Q3_K:
        return 4;
    default:
        return 0;
    }
}

size_t kquant_type_sb_bytes(DType type) {
    return kquant_weight_sb_bytes(kquant_gemm_sub_len(type), type == DType::Q2_K);
}

bool gemm_kquant_available(DType type, KernelPath path) {
    // The AVX-512 VNNI path includes the AVX2 one (CpuFeatures::has_avx512_vnni_path).
    return kquant_gemm_sub_len(type) != 0 && path == KernelPath::Auto && avx2_kernels_available();
}

void gemm_pack_kquant_weights(const TensorView& w, int64_t n0, uint8_t* dst) {
    const int sub_len = kquant_gemm_sub_len(w.type), groups = kquant_groups(sub_len);
    const int steps = sub_len / 4;
    const size_t sb_bytes = kquant_type_sb_bytes(w.type);
    const bool dmn_area = sb_bytes > 1024 + 64 * static_cast<size_t>(groups);
    const size_t block_bytes = dtype_traits(w.type).block_bytes;
    const int64_t nsb = w.ne[0] / kQKK, n = w.ne[1];
    const UnpackFn unpack = unpacker(w.type);
    UnpackedSuperBlock u;
    for (int64_t quad = 0; quad < kGemmRows / 4; ++quad)
        for (int64_t s = 0; s < nsb; ++s, dst += sb_bytes) {
            auto* dsc = reinterpret_cast<float*>(dst + 1024);
            auto* dmn = dsc + 16 * groups;
            for (int r = 0; r < 4; ++r) {
                const int64_t row = n0 + 4 * quad + r;
                if (row < n)
                    unpack(w.row(row) + s * block_bytes, &u);
                else
                    std::memset(&u, 0, sizeof u); // zero weights, zero scales
                for (int g = 0; g < groups; ++g)
                    for (int i = 0; i < 4; ++i) {
                        const int j = 4 * g + i;
                        dsc[16 * g + 4 * r + i] = u.dsc[j];
                        if (dmn_area)
                            dmn[16 * g + 4 * r + i] = u.dmn[j];
                        for (int q = 0; q < steps; ++q)
                            std::memcpy(dst + 64 * (steps * g + q) + 16 * r + 4 * i,
                                        u.q + sub_len * j + 4 * q, 4);
                    }
            }
        }
}

void gemm_pack_q8_k_activations(const uint8_t* act_row, int64_t k, int sub_len, int int_offset,
                                uint8_t* dst) {
    const int groups = kquant_groups(sub_len), steps = sub_len / 4;
    const size_t sb_bytes = kquant_act_sb_bytes(sub_len);
    const int64_t nsb = k / kQKK;
    if (!act_row) {
        std::memset(dst, 0, static_cast<size_t>(nsb) * sb_bytes);
        return;
    }
    const auto* blocks = reinterpret_cast<const BlockQ8K*>(act_row);
    for (int64_t s = 0; s < nsb; ++s, dst += sb_bytes) {
        const BlockQ8K& x = blocks[s];
        uint8_t* b_sums = dst + 256;
        for (int g = 0; g < groups; ++g)
            for (int i = 0; i < 4; ++i) {
                const int j = 4 * g + i;
                for (int q = 0; q < steps; ++q)
                    std::memcpy(dst + 16 * (steps * g + q) + 4 * i, x.qs + sub_len * j + 4 * q, 4);
                // bsums are per 16 elements: a 32-element sub-block is two of them.
                const int32_t b = sub_len == 16 ? x.bsums[j] : x.bsums[2 * j] + x.bsums[2 * j + 1];
                if (int_offset != 0) {
                    const int32_t corr = -int_offset * b;
                    std::memcpy(b_sums + 4 * j, &corr, 4);
                } else {
                    const auto bsum = static_cast<float>(b);
                    std::memcpy(b_sums + 4 * j, &bsum, 4);
                }
            }
        for (int i = 0; i < 4; ++i)
            std::memcpy(b_sums + 16 * groups + 4 * i, &x.d, 4);
    }
}

void gemm_kquant_avx2(const KernelContext& ctx, const TensorView& w, const QuantizedActivations& x,
                      float* y, int64_t y_stride) {
    const int sub_len = kquant_gemm_sub_len(w.type);
    const auto nsb = static_cast<size_t>(w.ne[0] / kQKK);
    // The activations' packed form per type (IQ4_XS's signed kernel reads no B).
    void (*pack_x)(const uint8_t*, int64_t, uint8_t*) =
        w.type == DType::Q6_K   ? pack_activations_l16
        : w.type == DType::Q3_K ? pack_activations_l16_offset4
        : w.type == DType::Q2_K ? pack_activations_l16_mins
                                : pack_activations_l32;
    GemmKernel kernel{nsb * kquant_act_sb_bytes(sub_len), 4 * nsb * kquant_type_sb_bytes(w.type),
                      gemm_pack_kquant_weights, pack_x, nullptr};
#if defined(FOLIO_X86)
    kernel.pack_weights = pack_weights_avx2;
    kernel.chunk = w.type == DType::IQ4_XS ? avx2::gemm_kquant_chunk_l32_signed
                   : w.type == DType::Q2_K ? avx2::gemm_kquant_chunk_l16_mins
                   : sub_len == 16         ? avx2::gemm_kquant_chunk_l16
                                           : avx2::gemm_kquant_chunk_l32;
#endif // else gemm_kquant_available() is false: never reached
    run_gemm(ctx, kernel, w, x, y, y_stride);
}

bool gemm_kquant_on_avx512(DType type) {
    return avx512_vnni_kernels_available() && avx512_kquant_type(type);
}

void gemm_kquant(const KernelContext& ctx, const TensorView& w, const QuantizedActivations& x,
                 float* y, int64_t y_stride) {
    if (!gemm_kquant_on_avx512(w.type)) {
        gemm_kquant_avx2(ctx, w, x, y, y_stride);
        return;
    }
    const int sub_len = kquant_gemm_sub_len(w.type);
    const bool offset32 = sub_len == 32 && kquant_int_offset(w.type) != 0; // IQ4_XS
    const auto nsb = static_cast<size_t>(w.ne[0] / kQKK);
    GemmKernel kernel{nsb * kquant_act_sb_bytes(sub_len), 4 * nsb * kquant_weight_sb_bytes(sub_len),
                      gemm_pack_kquant_weights,
                      sub_len == 16 ? pack_activations_l16
                      : offset32    ? pack_activations_l32_offset
                                    : pack_activations_l32,
                      nullptr};
#if defined(FOLIO_X86)
    kernel.pack_weights = pack_weights_avx512;
    kernel.chunk = sub_len == 16 ? avx512::gemm_kquant_chunk_l16
                   : offset32    ? avx512::gemm_kquant_chunk_l32_offset
                                 : avx512::gemm_kquant_chunk_l32;
#endif // else gemm_kquant_available() is false: never reached
    run_gemm(ctx, kernel, w, x, y, y_stride);
}

} // namespace folio
