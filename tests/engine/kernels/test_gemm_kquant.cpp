// The K-quant prefill GEMM (kernels/gemm_kquant.h) for Q2_K .. Q6_K and IQ4_XS weights: the
// packed layouts against hand-computed byte positions, the scalar reference within the stated float
// rounding bound of the float64 sum and of the reference and AVX2 vec_dot kernels, and the
// AVX-512 VNNI and AVX2 kernels against the reference bit for bit on odd shapes
// (rows not multiples of the tile, tokens 1, 15, 16, 17, 33, 100, K = 256 · odd), directly and
// through matmul.
#include <QtTest>

#include "kernels/gemm_kquant.h"
#include "kernels/kernel_table.h"
#include "kernels/matmul.h"
#include "kernels/reference/gemm_ref.h"
#include "kernels/weight_types.h"
#include "support/quant_rows.h"
#include "tensor/fp16.h"
#include "tensor/quant_blocks.h"
#include "tensor/quant_blocks_more.h"
#include "tensor/quantize.h"

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

using namespace folio;

namespace {

constexpr DType kTypes[] = {DType::Q4_K,   DType::Q5_K, DType::Q6_K,
                            DType::IQ4_XS, DType::Q3_K, DType::Q2_K};
// The types the AVX-512 VNNI kernels take (Q3_K and Q2_K run the AVX2 ones everywhere).
bool avx512_type(DType t) {
    return t != DType::Q3_K && t != DType::Q2_K;
}

size_t block_bytes(DType t) {
    return dtype_traits(t).block_bytes;
}

// n rows × k of random blocks: every quant and scale byte random (so every 6-bit scale / min,
// high bit and int8 Q6_K scale occurs), fp16 d / dmin random in sign and of varied magnitude.
std::vector<uint8_t> random_weight(DType t, int64_t k, int64_t n, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> byte(0, 255);
    std::uniform_real_distribution<float> scale(-0.002f, 0.002f);
    const size_t bb = block_bytes(t);
    std::vector<uint8_t> bytes(static_cast<size_t>(n * k / 256) * bb);
    for (auto& b : bytes)
        b = static_cast<uint8_t>(byte(rng));
    for (size_t i = 0; i < bytes.size() / bb; ++i) {
        uint8_t* blk = bytes.data() + i * bb;
        const float big = i % 7 == 3 ? 30.0f : 1.0f;
        const uint16_t d = fp32_to_fp16(scale(rng) * big), dmin = fp32_to_fp16(scale(rng) * big);
        if (t == DType::Q6_K) {
            std::memcpy(blk + offsetof(BlockQ6K, d), &d, 2);
        } else if (t == DType::IQ4_XS) {
            std::memcpy(blk + offsetof(BlockIQ4XS, d), &d, 2);
        } else if (t == DType::Q3_K) {
            std::memcpy(blk + offsetof(BlockQ3K, d), &d, 2);
        } else if (t == DType::Q2_K) {
            std::memcpy(blk + offsetof(BlockQ2K, d), &d, 2);
            std::memcpy(blk + offsetof(BlockQ2K, dmin), &dmin, 2);
        } else { // Q4_K and Q5_K both start with d, dmin
            std::memcpy(blk, &d, 2);
            std::memcpy(blk + 2, &dmin, 2);
        }
    }
    return bytes;
}

QuantizedActivations quantize(DType t, const std::vector<float>& x, int64_t k, int64_t rows) {
    QuantizedActivations xq;
    if (!quantize_activations(KernelContext{1, KernelPath::Reference}, t, x.data(), k, rows, k,
                              &xq))
        qFatal("quantize_activations failed");
    return xq;
}

std::vector<float> random_activations(int64_t k, int64_t t, uint32_t seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> nd(0.0f, 1.0f);
    std::vector<float> x(static_cast<size_t>(k * t));
    for (size_t i = 0; i < x.size(); ++i)
        x[i] = nd(rng) * (i % 97 == 5 ? 30.0f : 1.0f);
    return x;
}

std::vector<float> reference_gemm(DType t, const std::vector<uint8_t>& w, int64_t k, int64_t n,
                                  const QuantizedActivations& xq) {
    std::vector<float> y(static_cast<size_t>(n * xq.n_rows), std::nanf(""));
    ref::gemm_kquant(t, k, w.data(), static_cast<size_t>(k / 256) * block_bytes(t), n, xq.row(0),
                     xq.row_bytes, xq.n_rows, y.data(), n);
    return y;
}

bool same_bits(float a, float b) {
    return std::memcmp(&a, &b, sizeof a) == 0;
}

// The min-like term of element e's sub-block: dmin·m_j (Q4_K, Q5_K, Q2_K), 32·|d·sc_j| (Q6_K's
// −32) or 4·|d·sc_j| (Q3_K's −4); IQ4_XS has none (its +128 is removed in the exact integer sums).
double abs_min_term(DType t, const uint8_t* block, int e) {
    if (t == DType::IQ4_XS)
        return 0.0;
    if (t == DType::Q3_K) {
        const auto& b = *reinterpret_cast<const BlockQ3K*>(block);
        int8_t sc[16];
        q3k_scales(b.scales, sc);
        return 4.0 * std::fabs(double(fp16_to_fp32(b.d)) * sc[e / 16]);
    }
    if (t == DType::Q2_K) {
        const auto& b = *reinterpret_cast<const BlockQ2K*>(block);
        return std::fabs(double(fp16_to_fp32(b.dmin))) * (b.scales[e / 16] >> 4);
    }
    if (t == DType::Q6_K) {
        const auto& b = *reinterpret_cast<const BlockQ6K*>(block);
        return 32.0 * std::fabs(double(fp16_to_fp32(b.d)) * b.scales[e / 16]);
    }
    const auto& b = *reinterpret_cast<const BlockQ4K*>(block); // Q5_K: same first 16 bytes
    uint8_t sc, m;
    q4k_scale_min(e / 32, b.scales, &sc, &m);
    return std::fabs(double(fp16_to_fp32(b.dmin))) * m;
}

// The float64 value of row r · activation row j from the dequantized weights, and the rounding
// bound docs/NUMERICS.md states: every fp32 step (the GEMM's 2G + 1 FMAs per super-block and
// lane, the vec_dot kernels' scale products, FMAs and final sums, the dequantizer's one
// rounding) adds at most 2^-24 of the sum of the magnitudes of the terms it combines, here
// M = Σ_e |d_x|·(|w_e| + 2·|dmn_e|)·|x_e| (>= Σ |d_x·dsc·q·x| + |d_x·dmn·x|, the terms before
// the scale and min cancel); so |error| <= (8·K/256 + 8)·2^-24·M covers all of them.
struct ExactAndBound {
    double exact = 0;
    double bound = 0;
};

ExactAndBound expected(DType t, const std::vector<uint8_t>& w, int64_t k, int64_t r,
                       const QuantizedActivations& xq, int64_t j) {
    const int64_t nsb = k / 256;
    const uint8_t* row = w.data() + r * nsb * block_bytes(t);
    const std::vector<float> wf = test::dequant(t, row, k);
    const auto* xb = reinterpret_cast<const BlockQ8K*>(xq.row(j));
    ExactAndBound out;
    double magnitude = 0;
    for (int64_t s = 0; s < nsb; ++s)
        for (int e = 0; e < 256; ++e) {
            const double x = double(xb[s].d) * xb[s].qs[e];
            out.exact += double(wf[s * 256 + e]) * x;
            magnitude += (std::fabs(double(wf[s * 256 + e])) +
                          2 * abs_min_term(t, row + s * block_bytes(t), e)) *
                         std::fabs(x);
        }
    out.bound = (8.0 * double(nsb) + 8.0) * std::ldexp(1.0, -24) * magnitude + 1e-30;
    return out;
}

QString where(DType t, int64_t k, int64_t n, int64_t tokens, size_t at) {
    return QString("%1 k=%2 n=%3 t=%4 at %5")
        .arg(dtype_name(t).data())
        .arg(k)
        .arg(n)
        .arg(tokens)
        .arg(at);
}

} // namespace

class TestGemmKQuant : public QObject {
    Q_OBJECT
    void packerEqualsScalarPacker(decltype(&avx2::gemm_pack_kquant_weights) packer, bool all) {
        for (DType t : kTypes)
            for (int64_t n : {16, 7}) {
                if (!all && !avx512_type(t))
                    continue;
                const int64_t k = 3 * 256;
                const auto w = random_weight(t, k, n, static_cast<uint32_t>(n) + 5);
                const TensorView v = make_tensor_view(t, {k, n, 1, 1}, w.data());
                const size_t bytes = 4 * 3 * kquant_type_sb_bytes(t);
                std::vector<uint8_t> scalar(bytes, 0x11), fast(bytes, 0xEE);
                gemm_pack_kquant_weights(v, 0, scalar.data());
                const uint8_t* rows[kGemmRows];
                for (int64_t r = 0; r < kGemmRows; ++r)
                    rows[r] = r < n ? v.row(r) : nullptr;
                packer(t, rows, k, fast.data());
                for (size_t i = 0; i < bytes; ++i)
                    if (scalar[i] != fast[i])
                        QFAIL(qPrintable(where(t, k, n, 0, i) +
                                         QString(": %1 vs scalar %2").arg(fast[i]).arg(scalar[i])));
            }
    }

    // Every type the GEMM takes (`available`: as gemm_kquant_available says; else all of them) on
    // rows that are not multiples of the register tiles or the chunk, token counts around the
    // tiles, 1 and 2 threads, bit for bit against the reference.
    void gemmEqualsReferenceOnOddShapes(decltype(&gemm_kquant) gemm, bool available) {
        for (DType t : kTypes)
            for (int64_t nsb : {1, 3, 9})
                for (int64_t n : {1, 8, 13, 16, 37}) {
                    const int64_t k = 256 * nsb;
                    if (available && !gemm_kquant_available(t, KernelPath::Auto))
                        continue;
                    const auto w = random_weight(t, k, n, static_cast<uint32_t>(7 * nsb + n));
                    const auto x = random_activations(k, 100, static_cast<uint32_t>(nsb + n));
                    const TensorView v = make_tensor_view(t, {k, n, 1, 1}, w.data());
                    for (int64_t tokens : {1, 15, 16, 17, 33, 100}) {
                        const QuantizedActivations xq = quantize(t, x, k, tokens);
                        const auto y_ref = reference_gemm(t, w, k, n, xq);
                        for (int threads : {1, 2}) {
                            std::vector<float> y(y_ref.size(), std::nanf(""));
                            gemm(KernelContext{threads, KernelPath::Auto}, v, xq, y.data(), n);
                            for (size_t i = 0; i < y.size(); ++i)
                                if (!same_bits(y[i], y_ref[i]))
                                    QFAIL(qPrintable(where(t, k, n, tokens, i) +
                                                     QString(" threads=%1: %2 vs reference %3")
                                                         .arg(threads)
                                                         .arg(y[i], 0, 'g', 9)
                                                         .arg(y_ref[i], 0, 'g', 9)));
                        }
                    }
                }
    }

private slots:
    void packedWeightBytesWhereTheLayoutSays() {
        // Q4_K, 6 rows × 2 super-blocks: rows 6..15 of the chunk are padding.
        const int64_t k = 512, n = 6;
        const auto w = random_weight(DType::Q4_K, k, n, 11);
        const TensorView v = make_tensor_view(DType::Q4_K, {k, n, 1, 1}, w.data());
        const size_t sb = kquant_weight_sb_bytes(32);
        QCOMPARE(sb, size_t{1280});
        std::vector<uint8_t> packed(4 * 2 * sb, 0xEE);
        gemm_pack_kquant_weights(v, 0, packed.data());
        const auto* blocks = reinterpret_cast<const BlockQ4K*>(w.data());
        // Row 5, super-block 1, sub-block 3 (high nibbles of qs[32 ..63]), element 13: quad 1,
        // r 1, group 0, lane i 3, step q 3, byte e 1.
        const BlockQ4K& b51 = blocks[5 * 2 + 1];
        QCOMPARE(int(packed[(1 * 2 + 1) * sb + 64 * 3 + 16 * 1 + 4 * 3 + 1]), b51.qs[32 + 13] >> 4);
        // Its scale and min: group 0, lane 4r + i = 7.
        uint8_t sc, m;
        q4k_scale_min(3, b51.scales, &sc, &m);
        float f;
        std::memcpy(&f, packed.data() + (1 * 2 + 1) * sb + 1024 + 4 * 7, 4);
        QCOMPARE(f, fp16_to_fp32(b51.d) * sc);
        std::memcpy(&f, packed.data() + (1 * 2 + 1) * sb + 1024 + 64 * 2 + 4 * 7, 4);
        QCOMPARE(f, fp16_to_fp32(b51.dmin) * m);
        // Row 2, super-block 0, sub-block 6 (low nibbles of qs[96 ..]), element 30: quad 0, r 2,
        // group 1, i 2, q 7, e 2.
        QCOMPARE(int(packed[64 * (8 + 7) + 16 * 2 + 4 * 2 + 2]), blocks[2 * 2].qs[96 + 30] & 0xF);
        // Padding row 7 (quad 1, r 3): zero weights and scales.
        QCOMPARE(int(packed[(1 * 2) * sb + 64 * 5 + 16 * 3 + 6]), 0);
        std::memcpy(&f, packed.data() + (1 * 2) * sb + 1024 + 64 + 4 * 13, 4);
        QCOMPARE(f, 0.0f);
        // Every byte is written.
        std::vector<uint8_t> again(packed.size(), 0x11);
        gemm_pack_kquant_weights(v, 0, again.data());
        QVERIFY(again == packed);
    }

    void packedQ6KBytesWhereTheLayoutSays() {
        const int64_t k = 256, n = 4;
        const auto w = random_weight(DType::Q6_K, k, n, 12);
        const TensorView v = make_tensor_view(DType::Q6_K, {k, n, 1, 1}, w.data());
        const size_t sb = kquant_weight_sb_bytes(16);
        QCOMPARE(sb, size_t{1280}); // no dmn area: the −32 is applied in the integer sums
        std::vector<uint8_t> packed(4 * sb);
        gemm_pack_kquant_weights(v, 0, packed.data());
        // Row 3, element 200 = 128 + 64 + 8: half 1, high nibble of ql[64 + 8], bits 4-5 of
        // qh[32 + 8]; sub-block 12 (group 3, i 0), step 2, byte 0.
        const auto& b = reinterpret_cast<const BlockQ6K*>(w.data())[3];
        const int q = (b.ql[64 + 8] >> 4) | (((b.qh[32 + 8] >> 4) & 3) << 4);
        QCOMPARE(int(packed[64 * (4 * 3 + 2) + 16 * 3 + 4 * 0 + 0]), q);
        float dsc;
        std::memcpy(&dsc, packed.data() + 1024 + 4 * (16 * 3 + 4 * 3 + 0), 4);
        QCOMPARE(dsc, fp16_to_fp32(b.d) * b.scales[12]);
    }

    void packedIq4XsBytesWhereTheLayoutSays() {
        const int64_t k = 512, n = 3;
        const auto w = random_weight(DType::IQ4_XS, k, n, 13);
        const TensorView v = make_tensor_view(DType::IQ4_XS, {k, n, 1, 1}, w.data());
        QCOMPARE(kquant_gemm_sub_len(DType::IQ4_XS), 32);
        QCOMPARE(kquant_int_offset(DType::IQ4_XS), 128);
        const size_t sb = kquant_weight_sb_bytes(32);
        std::vector<uint8_t> packed(4 * 2 * sb, 0xEE);
        gemm_pack_kquant_weights(v, 0, packed.data());
        const auto* blocks = reinterpret_cast<const BlockIQ4XS*>(w.data());
        // Row 2, super-block 1, sub-block 5 (qs[80 .. 95]), element 21 = high nibble of qs[85]:
        // quad 0, r 2, group 1, lane i 1, step q 5, byte e 1; stored as the level + 128.
        const BlockIQ4XS& b = blocks[2 * 2 + 1];
        QCOMPARE(int(packed[sb + 64 * (8 + 5) + 16 * 2 + 4 * 1 + 1]),
                 kIq4nlValues[b.qs[85] >> 4] + 128);
        // Element 3 of sub-block 5 = low nibble of qs[83]: step 0, byte 3.
        QCOMPARE(int(packed[sb + 64 * 8 + 16 * 2 + 4 * 1 + 3]), kIq4nlValues[b.qs[83] & 0xF] + 128);
        float f;
        std::memcpy(&f, packed.data() + sb + 1024 + 4 * (16 * 1 + 4 * 2 + 1), 4);
        QCOMPARE(f, fp16_to_fp32(b.d) * float(iq4xs_scale(b, 5) - 32));
        std::memcpy(&f, packed.data() + sb + 1024 + 4 * (32 + 16 * 1 + 4 * 2 + 1), 4);
        QCOMPARE(f, 0.0f); // no min term
    }

    void packedQ3KAndQ2KBytesWhereTheLayoutSays() {
        const int64_t k = 256, n = 4;
        QCOMPARE(kquant_type_sb_bytes(DType::Q3_K), size_t{1280}); // the −4 in the integer sums
        QCOMPARE(kquant_type_sb_bytes(DType::Q2_K), size_t{1536}); // dsc and dmn of 16 sub-blocks
        QCOMPARE(kquant_int_offset(DType::Q3_K), 4);
        QCOMPARE(kquant_int_offset(DType::Q2_K), 0);
        // Row 2, element 181 = 128 + 32·1 + 16·1 + 5: n 1, j 1, h 1, l 5 -> bits 2-3 of
        // qs[32 + 21], hmask bit 5 of hmask[21]; sub-block 11 (group 2, lane i 3), step 1, byte 1.
        const auto w3 = random_weight(DType::Q3_K, k, n, 14);
        std::vector<uint8_t> p3(4 * kquant_type_sb_bytes(DType::Q3_K));
        gemm_pack_kquant_weights(make_tensor_view(DType::Q3_K, {k, n, 1, 1}, w3.data()), 0,
                                 p3.data());
        const auto& b3 = reinterpret_cast<const BlockQ3K*>(w3.data())[2];
        const int q3 = ((b3.qs[32 + 21] >> 2) & 3) | (((b3.hmask[21] >> 5) & 1) << 2);
        QCOMPARE(int(p3[64 * (4 * 2 + 1) + 16 * 2 + 4 * 3 + 1]), q3);
        int8_t sc[16];
        q3k_scales(b3.scales, sc);
        float f;
        std::memcpy(&f, p3.data() + 1024 + 4 * (16 * 2 + 4 * 2 + 3), 4);
        QCOMPARE(f, fp16_to_fp32(b3.d) * float(sc[11]));
        // Q2_K, row 1, element 70 = 64 + 6: n 0, j 2, h 0, l 6 -> bits 4-5 of qs[6]; sub-block 4
        // (group 1, i 0), step 1, byte 2; its min in the dmn area after the 64 dsc floats.
        const auto w2 = random_weight(DType::Q2_K, k, n, 15);
        std::vector<uint8_t> p2(4 * kquant_type_sb_bytes(DType::Q2_K));
        gemm_pack_kquant_weights(make_tensor_view(DType::Q2_K, {k, n, 1, 1}, w2.data()), 0,
                                 p2.data());
        const auto& b2 = reinterpret_cast<const BlockQ2K*>(w2.data())[1];
        QCOMPARE(int(p2[64 * (4 * 1 + 1) + 16 * 1 + 4 * 0 + 2]), (b2.qs[6] >> 4) & 3);
        std::memcpy(&f, p2.data() + 1024 + 4 * (16 * 1 + 4 * 1 + 0), 4);
        QCOMPARE(f, fp16_to_fp32(b2.d) * float(b2.scales[4] & 0xF));
        std::memcpy(&f, p2.data() + 1024 + 4 * (64 + 16 * 1 + 4 * 1 + 0), 4);
        QCOMPARE(f, fp16_to_fp32(b2.dmin) * float(b2.scales[4] >> 4));
    }

    // The GEMM against the dequantize-then-f32 product: IQ4_XS weights and Q8_K activations
    // dequantized to floats, multiplied by the F32 matmul, within the GEMM's bound plus the f32
    // sum's (K·2^-24 of the sum of magnitudes).
    void iq4XsGemmNearDequantizedF32Matmul() {
        const DType t = DType::IQ4_XS;
        const int64_t k = 256 * 5, n = 19, tokens = 37;
        const auto w = random_weight(t, k, n, 321);
        const auto xq = quantize(t, random_activations(k, tokens, 5), k, tokens);
        const TensorView v = make_tensor_view(t, {k, n, 1, 1}, w.data());
        std::vector<float> y(static_cast<size_t>(n * tokens), std::nanf(""));
        QVERIFY(matmul(KernelContext{2, KernelPath::Auto}, v, xq, y.data(), n));
        std::vector<float> wf(static_cast<size_t>(n * k)), xf(static_cast<size_t>(tokens * k));
        for (int64_t r = 0; r < n; ++r) {
            const auto row = test::dequant(t, w.data() + r * (k / 256) * block_bytes(t), k);
            std::copy(row.begin(), row.end(), wf.begin() + r * k);
        }
        for (int64_t j = 0; j < tokens; ++j) {
            const auto* xb = reinterpret_cast<const BlockQ8K*>(xq.row(j));
            for (int64_t e = 0; e < k; ++e)
                xf[j * k + e] = xb[e / 256].d * xb[e / 256].qs[e % 256];
        }
        const TensorView vf = make_tensor_view(DType::F32, {k, n, 1, 1}, wf.data());
        std::vector<float> yf(y.size(), std::nanf(""));
        QVERIFY(matmul(KernelContext{2, KernelPath::Auto}, vf, xf.data(), k, tokens, yf.data(), n));
        int checked = 0;
        for (int64_t j = 0; j < tokens; ++j)
            for (int64_t r = 0; r < n; ++r) {
                const ExactAndBound e = expected(t, w, k, r, xq, j);
                double magnitude = 0;
                for (int64_t i = 0; i < k; ++i)
                    magnitude += std::fabs(double(wf[r * k + i]) * xf[j * k + i]);
                const double tol = e.bound + double(k) * std::ldexp(1.0, -24) * magnitude;
                const size_t at = static_cast<size_t>(j * n + r);
                QVERIFY2(std::fabs(double(y[at]) - yf[at]) <= tol,
                         qPrintable(where(t, k, n, j, at) + QString(": gemm %1 f32 %2 tol %3")
                                                                .arg(y[at], 0, 'g', 9)
                                                                .arg(yf[at], 0, 'g', 9)
                                                                .arg(tol, 0, 'g', 3)));
                QVERIFY(std::fabs(yf[at]) > 0.0f);
                ++checked;
            }
        QCOMPARE(checked, int(n * tokens));
    }

    // The AVX-512 packer writes the scalar packer's bytes (its types, padding rows included);
    // the AVX2 one for every type.
    void avx512PackerEqualsScalarPacker() {
        if (!avx512_vnni_kernels_available())
            QSKIP("this CPU has no AVX-512 VNNI: the GEMM is never used here");
        packerEqualsScalarPacker(avx512::gemm_pack_kquant_weights, false);
    }
    void avx2PackerEqualsScalarPacker() {
        if (!avx2_kernels_available())
            QSKIP("this CPU has no AVX2");
        packerEqualsScalarPacker(avx2::gemm_pack_kquant_weights, true);
    }

    // The AVX2 Q8_K activation quantizer (what matmul uses outside KernelPath::Reference) writes
    // the reference quantizer's bytes: random rows, an all-zero block, the max |x| reached twice
    // with opposite signs (the first one sets the sign of d), values that scale to exact halves.
    void q8KQuantizerAvx2EqualsReference() {
        if (!avx2_kernels_available())
            QSKIP("this CPU has no AVX2");
        const ActivationFormat* f = find_activation_format(DType::Q8_K);
        QVERIFY(f);
        const QuantizeRowFn fast = activation_quantizer(*f, KernelPath::Avx2);
        QVERIFY(fast != quantize_row_q8_k);
        const int64_t k = 6 * 256;
        std::vector<float> x = random_activations(k, 1, 77);
        for (int e = 256; e < 512; ++e)
            x[e] = 0.0f;                         // block 1: all zero
        x[512 + 3] = -9.0f, x[512 + 200] = 9.0f; // block 2: -9 first
        x[768 + 100] = 5.0f, x[768 + 7] = -5.0f; // block 3: -5 first
        for (int e = 0; e < 256; ++e) // block 4: max 127 -> iscale = -1, halves everywhere
            x[1024 + e] = e == 0 ? 127.0f : static_cast<float>(e % 60) - 30.5f;
        // The blocks (the derived areas after them are quantize_activations' job, below).
        const size_t blocks = dtype_row_bytes(DType::Q8_K, k);
        std::vector<uint8_t> a(blocks, 0x11), b(blocks, 0xEE);
        quantize_row_q8_k(x.data(), a.data(), k);
        fast(x.data(), b.data(), k);
        for (size_t i = 0; i < a.size(); ++i)
            QVERIFY2(a[i] == b[i],
                     qPrintable(QString("byte %1: %2 vs reference %3").arg(i).arg(b[i]).arg(a[i])));
    }

    // A Q8_K activation row carries, after its blocks, each super-block's values in the order of
    // the Q4_K / Q5_K AVX-512 steps: per half h, the values under the low nibbles of chunks 2h
    // and 2h + 1 (values 64c .. 64c + 31 of chunk c), then those under their high nibbles
    // (64c + 32 .. 64c + 63).
    void q8KRowsCarryTheNibbleOrder() {
        const int64_t k = 3 * 256;
        const QuantizedActivations xq = quantize(DType::Q4_K, random_activations(k, 2, 5), k, 2);
        const Q8_KActLayout l = q8_k_act_layout(k);
        QCOMPARE(xq.row_bytes, l.row_bytes);
        QVERIFY(l.pairs >= dtype_row_bytes(DType::Q8_K, k) && l.pairs % 64 == 0);
        for (int64_t t = 0; t < 2; ++t) {
            const auto* x = reinterpret_cast<const BlockQ8K*>(xq.row(t));
            const auto* pairs = reinterpret_cast<const int8_t*>(xq.row(t) + l.pairs);
            for (int64_t sb = 0; sb < 3; ++sb)
                for (int h = 0; h < 2; ++h)
                    for (int i = 0; i < 32; ++i) {
                        const int8_t* p = pairs + 256 * sb + 128 * h;
                        const int c0 = 2 * h, c1 = 2 * h + 1;
                        QCOMPARE(p[i], x[sb].qs[64 * c0 + i]);
                        QCOMPARE(p[32 + i], x[sb].qs[64 * c1 + i]);
                        QCOMPARE(p[64 + i], x[sb].qs[64 * c0 + 32 + i]);
                        QCOMPARE(p[96 + i], x[sb].qs[64 * c1 + 32 + i]);
                    }
        }
    }

    void packedActivationsWhereTheLayoutSays() {
        const int64_t k = 512;
        const QuantizedActivations xq = quantize(DType::Q4_K, random_activations(k, 1, 3), k, 1);
        const auto* x = reinterpret_cast<const BlockQ8K*>(xq.row(0));
        for (auto [sub_len, offset] : {std::pair{32, 0}, std::pair{16, 32}, std::pair{32, 128}}) {
            const size_t sb = kquant_act_sb_bytes(sub_len);
            std::vector<uint8_t> packed(2 * sb);
            gemm_pack_q8_k_activations(xq.row(0), k, sub_len, offset, packed.data());
            // Super-block 1, element 77: sub-block 77 / L, offset 77 % L.
            const int j = 77 / sub_len, g = j / 4, i = j % 4, q = (77 % sub_len) / 4;
            QCOMPARE(int8_t(packed[sb + 16 * (sub_len / 4 * g + q) + 4 * i + 1]), x[1].qs[77]);
            int bsum = 0;
            for (int e = sub_len * j; e < sub_len * (j + 1); ++e)
                bsum += x[1].qs[e];
            float f;
            int32_t corr;
            std::memcpy(&f, packed.data() + sb + 256 + 4 * j, 4);
            std::memcpy(&corr, packed.data() + sb + 256 + 4 * j, 4);
            if (offset == 0)
                QCOMPARE(f, float(bsum));
            else
                QCOMPARE(corr, -offset * bsum);
            std::memcpy(&f, packed.data() + sb + 256 + 4 * (64 / sub_len) * 4 + 8, 4);
            QCOMPARE(f, x[1].d);
        }
    }

    // The reference GEMM, the reference vec_dot and the AVX2 vec_dot all within the stated
    // bound of the float64 value; the GEMM within twice the bound of the AVX2 kernel.
    void referenceWithinRoundingOfVecDotAndFloat64() {
        for (DType t : kTypes)
            for (int64_t nsb : {1, 3, 5})
                for (int64_t tokens : {1, 3}) {
                    const int64_t k = 256 * nsb, n = 5;
                    const auto w = random_weight(t, k, n, static_cast<uint32_t>(nsb + 10 * n));
                    const auto xq =
                        quantize(t, random_activations(k, tokens, uint32_t(nsb)), k, tokens);
                    const auto y_ref = reference_gemm(t, w, k, n, xq);
                    const TensorView v = make_tensor_view(t, {k, n, 1, 1}, w.data());
                    std::vector<float> y_vref(static_cast<size_t>(n * tokens));
                    std::vector<float> y_avx2(y_vref.size());
                    QVERIFY(
                        matmul(KernelContext{1, KernelPath::Reference}, v, xq, y_vref.data(), n));
                    QVERIFY(matmul(KernelContext{1, KernelPath::Avx2}, v, xq, y_avx2.data(), n));
                    for (int64_t j = 0; j < tokens; ++j)
                        for (int64_t r = 0; r < n; ++r) {
                            const ExactAndBound e = expected(t, w, k, r, xq, j);
                            const size_t at = static_cast<size_t>(j * n + r);
                            const QString msg = where(t, k, n, j, at) +
                                                QString(": gemm %1 vec_dot %2 avx2 %3 exact %4")
                                                    .arg(y_ref[at], 0, 'g', 9)
                                                    .arg(y_vref[at], 0, 'g', 9)
                                                    .arg(y_avx2[at], 0, 'g', 9)
                                                    .arg(e.exact, 0, 'g', 12);
                            QVERIFY2(std::fabs(y_ref[at] - e.exact) <= e.bound, qPrintable(msg));
                            QVERIFY2(std::fabs(y_vref[at] - e.exact) <= e.bound, qPrintable(msg));
                            QVERIFY2(std::fabs(y_avx2[at] - e.exact) <= e.bound, qPrintable(msg));
                            QVERIFY2(std::fabs(y_ref[at] - y_avx2[at]) <= 2 * e.bound,
                                     qPrintable(msg));
                        }
                }
    }

    // What matmul runs (the AVX-512 kernels, or the AVX2 ones on CPUs without AVX-512 VNNI and for
    // Q3_K / Q2_K), and the AVX2 kernels whatever this CPU has beyond AVX2 (every type).
    void avx512GemmEqualsReferenceOnOddShapes() {
        if (!gemm_kquant_available(DType::Q4_K, KernelPath::Auto))
            QSKIP("this CPU has no AVX-512 VNNI or AVX2: the GEMM is never used here");
        gemmEqualsReferenceOnOddShapes(gemm_kquant, true);
    }
    void avx2GemmEqualsReferenceOnOddShapes() {
        if (!avx2_kernels_available())
            QSKIP("this CPU has no AVX2");
        gemmEqualsReferenceOnOddShapes(gemm_kquant_avx2, false);
    }

    // Through matmul (Auto): from kGemmMinTokens tokens on the GEMM's bits (also with an output
    // stride wider than N), below that the decode dot's (the registry's Auto kernel: AVX2's bits
    // for the k-quants, IQ4_XS's own AVX-512 kernel), each token as if alone.
    void matmulTakesTheGemmFromMinTokens() {
        if (!gemm_kquant_available(DType::Q4_K, KernelPath::Auto) || !avx2_kernels_available())
            QSKIP("this CPU has no AVX-512 VNNI or AVX2: the GEMM is never used here");
        const int64_t k = 256 * 3, n = 21, ys = n + 3;
        for (DType t : kTypes) {
            const auto w = random_weight(t, k, n, 99);
            const TensorView v = make_tensor_view(t, {k, n, 1, 1}, w.data());
            for (int64_t tokens : {kGemmMinTokens - 1, kGemmMinTokens, int64_t{40}}) {
                const auto x = random_activations(k, tokens, static_cast<uint32_t>(tokens));
                const QuantizedActivations xq = quantize(t, x, k, tokens);
                std::vector<float> y_auto(static_cast<size_t>(ys * tokens), -1.0f);
                std::vector<float> y_path = y_auto;
                QVERIFY(matmul(KernelContext{2, KernelPath::Auto}, v, x.data(), k, tokens,
                               y_auto.data(), ys));
                if (tokens >= kGemmMinTokens && gemm_kquant_available(t, KernelPath::Auto)) {
                    const auto y_ref = reference_gemm(t, w, k, n, xq);
                    for (int64_t j = 0; j < tokens; ++j)
                        for (int64_t r = 0; r < n; ++r)
                            std::memcpy(&y_path[j * ys + r], &y_ref[j * n + r], 4);
                } else {
                    const VecDotFn dot = weight_dot(*find_weight_type(t), KernelPath::Auto);
                    for (int64_t j = 0; j < tokens; ++j)
                        for (int64_t r = 0; r < n; ++r)
                            dot(k, v.row(r), xq.row(j), xq.row_bytes, 1, &y_path[j * ys + r], 1);
                }
                for (size_t i = 0; i < y_auto.size(); ++i)
                    QVERIFY2(same_bits(y_auto[i], y_path[i]),
                             qPrintable(where(t, k, n, tokens, i)));
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestGemmKQuant)
#include "test_gemm_kquant.moc"
