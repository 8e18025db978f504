// The Q8_0 prefill GEMM (kernels/gemm_q8_0.h): its packed layouts against hand-computed byte
// positions, its scalar reference against the AVX2 vec_dot kernel and float64, and the AVX-512
// VNNI and AVX2 kernels against the reference bit for bit on odd shapes (rows not multiples of
// the tile, tokens 1..67, K of 1..9 blocks), directly and through matmul.
#include <QtTest>

#include "kernels/gemm_q8_0.h"
#include "kernels/kernel_table.h"
#include "kernels/matmul.h"
#include "kernels/reference/gemm_ref.h"
#include "support/quant_rows.h"
#include "tensor/fp16.h"
#include "tensor/quant_blocks.h"
#include "tensor/quantize.h"

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

using namespace folio;

namespace {

// A Q8_0 weight of n rows × k: random quants over the whole int8 range (including -128, which
// the quantizer never writes but a file may hold) and random scales of varied magnitude.
std::vector<uint8_t> random_q8_0_weight(int64_t k, int64_t n, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> q(-128, 127);
    std::uniform_real_distribution<float> scale(-0.02f, 0.02f);
    std::vector<uint8_t> bytes(static_cast<size_t>(n * k / 32) * sizeof(BlockQ8_0));
    auto* b = reinterpret_cast<BlockQ8_0*>(bytes.data());
    for (int64_t i = 0; i < n * k / 32; ++i) {
        b[i].d = fp32_to_fp16(scale(rng) * (i % 7 == 3 ? 40.0f : 1.0f));
        for (int8_t& v : b[i].qs)
            v = static_cast<int8_t>(q(rng));
    }
    return bytes;
}

std::vector<float> random_activations(int64_t k, int64_t t, uint32_t seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> nd(0.0f, 1.0f);
    std::vector<float> x(static_cast<size_t>(k * t));
    for (size_t i = 0; i < x.size(); ++i)
        x[i] = nd(rng) * (i % 97 == 5 ? 30.0f : 1.0f);
    return x;
}

QuantizedActivations quantize(const std::vector<float>& x, int64_t k, int64_t t) {
    QuantizedActivations xq;
    if (!quantize_activations(KernelContext{1, KernelPath::Reference}, DType::Q8_0, x.data(), k, t,
                              k, &xq))
        qFatal("quantize_activations failed");
    return xq;
}

std::vector<float> reference_gemm(const std::vector<uint8_t>& w, int64_t k, int64_t n,
                                  const QuantizedActivations& xq) {
    std::vector<float> y(static_cast<size_t>(n * xq.n_rows), std::nanf(""));
    ref::gemm_q8_0(k, w.data(), static_cast<size_t>(k / 32) * sizeof(BlockQ8_0), n, xq.row(0),
                   xq.row_bytes, xq.n_rows, y.data(), n);
    return y;
}

// A weight of `type` (random bytes, fp16 d of varied magnitude at the start of every block) and
// the Q8_0 weight with the same d and values, from the reference dequantizer (d·q is exact in
// fp32, so q = y / d exactly).
struct WeightAndQ8_0 {
    std::vector<uint8_t> w, as_q8_0;
};

WeightAndQ8_0 random_weight_as_q8_0(DType type, int64_t k, int64_t n, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> scale(0.001f, 0.02f);
    const size_t bb = dtype_traits(type).block_bytes, nb = static_cast<size_t>(n * k / 32);
    WeightAndQ8_0 out;
    out.w.resize(nb * bb);
    for (auto& b : out.w)
        b = static_cast<uint8_t>(rng());
    out.as_q8_0.resize(nb * sizeof(BlockQ8_0));
    auto* q8 = reinterpret_cast<BlockQ8_0*>(out.as_q8_0.data());
    // MXFP4 has no fp16 d (its first byte is an exponent): its random bytes are the weight as
    // they are, every exponent included, and there is no Q8_0 equivalent (as_q8_0 stays zero).
    if (type == DType::MXFP4)
        return out;
    for (size_t i = 0; i < nb; ++i) {
        const uint16_t d =
            fp32_to_fp16(scale(rng) * (i % 2 ? -1.0f : 1.0f) * (i % 7 == 3 ? 40 : 1));
        std::memcpy(out.w.data() + i * bb, &d, 2);
        const std::vector<float> y = test::dequant(type, out.w.data() + i * bb, 32);
        q8[i].d = d;
        for (int j = 0; j < 32; ++j)
            q8[i].qs[j] = static_cast<int8_t>(y[j] / fp16_to_fp32(d));
    }
    return out;
}

bool same_bits(float a, float b) {
    return std::memcmp(&a, &b, sizeof a) == 0;
}

} // namespace

class TestGemm : public QObject {
    Q_OBJECT
    // The GEMM on every token count 1..67 (so every token tile edge), rows that are not multiples
    // of the register tiles or the 16-row chunk, K of 1..9 blocks, 1 and 2 threads.
    void gemmEqualsReferenceOnOddShapes(decltype(&gemm_q8_0) gemm) {
        if (!gemm_q8_0_available(KernelPath::Auto))
            QSKIP("this CPU has no AVX-512 VNNI or AVX2: the GEMM is never used here");
        for (int64_t blocks = 1; blocks <= 9; ++blocks)
            for (int64_t n : {1, 8, 13, 16, 37}) {
                const int64_t k = 32 * blocks;
                const auto w = random_q8_0_weight(k, n, static_cast<uint32_t>(7 * blocks + n));
                const auto x = random_activations(k, 67, static_cast<uint32_t>(blocks + 1000 * n));
                const TensorView v = make_tensor_view(DType::Q8_0, {k, n, 1, 1}, w.data());
                for (int64_t t = 1; t <= 67; ++t) {
                    const QuantizedActivations xq = quantize(x, k, t);
                    const auto y_ref = reference_gemm(w, k, n, xq);
                    for (int threads = 1; threads <= (t > 48 ? 2 : 1); ++threads) {
                        std::vector<float> y(static_cast<size_t>(n * t), std::nanf(""));
                        gemm(KernelContext{threads, KernelPath::Auto}, v, xq, y.data(), n);
                        for (size_t i = 0; i < y.size(); ++i)
                            if (!same_bits(y[i], y_ref[i]))
                                QFAIL(qPrintable(QString("k=%1 n=%2 t=%3 threads=%4 at %5: "
                                                         "%6 vs reference %7")
                                                     .arg(k)
                                                     .arg(n)
                                                     .arg(t)
                                                     .arg(threads)
                                                     .arg(i)
                                                     .arg(y[i], 0, 'g', 9)
                                                     .arg(y_ref[i], 0, 'g', 9)));
                    }
                }
            }
    }

private slots:
    void packedWeightBytesWhereTheLayoutSays() {
        // 5 rows × 6 blocks: 2 groups, the second half padding; rows 5..15 of the chunk padding.
        const int64_t k = 6 * 32, n = 5, ng = gemm_groups(k);
        QCOMPARE(ng, int64_t{2});
        const auto w = random_q8_0_weight(k, n, 11);
        const TensorView v = make_tensor_view(DType::Q8_0, {k, n, 1, 1}, w.data());
        std::vector<uint8_t> packed(4 * ng * kGemmWeightGroupBytes, 0xEE);
        gemm_pack_q8_0_weights(v, 0, packed.data());
        const auto* blocks = reinterpret_cast<const BlockQ8_0*>(w.data());
        // Row 4, block 5, byte 13: quad 1, r 0, group 1, i 1, q 3, e 1.
        const size_t at = (1 * ng + 1) * kGemmWeightGroupBytes + 64 * 3 + 16 * 0 + 4 * 1 + 1;
        QCOMPARE(int(packed[at]), blocks[4 * 6 + 5].qs[13] + 128);
        // Row 2, block 0, byte 31: quad 0, r 2, group 0, i 0, q 7, e 3.
        QCOMPARE(int(packed[64 * 7 + 16 * 2 + 3]), blocks[2 * 6 + 0].qs[31] + 128);
        // Scale of row 3, block 2 (quad 0, group 0, r 3, i 2).
        uint16_t d;
        std::memcpy(&d, packed.data() + 512 + 2 * (4 * 3 + 2), 2);
        QCOMPARE(d, blocks[3 * 6 + 2].d);
        // Padding: block 6 of row 1 (group 1, i 2) and row 7 (quad 1, r 3) are zero weights
        // (128 unsigned) with zero scales.
        QCOMPARE(int(packed[kGemmWeightGroupBytes + 64 * 4 + 16 * 1 + 4 * 2]), 128);
        QCOMPARE(int(packed[(1 * ng) * kGemmWeightGroupBytes + 16 * 3 + 5]), 128);
        std::memcpy(&d, packed.data() + kGemmWeightGroupBytes + 512 + 2 * (4 * 1 + 2), 2);
        QCOMPARE(d, uint16_t{0});
        // Every byte is written: packing over a differently filled buffer gives the same bytes.
        std::vector<uint8_t> again(packed.size(), 0x11);
        gemm_pack_q8_0_weights(v, 0, again.data());
        QVERIFY(again == packed);
    }

    void packedActivationsWhereTheLayoutSays() {
        const int64_t k = 5 * 32;
        const auto x = random_activations(k, 1, 3);
        const QuantizedActivations xq = quantize(x, k, 1);
        std::vector<uint8_t> packed(gemm_groups(k) * kGemmActGroupBytes);
        gemm_pack_q8_0_activations(xq.row(0), k, packed.data());
        const auto* blocks = reinterpret_cast<const BlockQ8_0*>(xq.row(0));
        // Block 2, byte 21: group 0, q 5, i 2, e 1.
        QCOMPARE(int8_t(packed[16 * 5 + 4 * 2 + 1]), blocks[2].qs[21]);
        // Block 4, byte 0: group 1, q 0, i 0; blocks 5..7 are padding zeros.
        QCOMPARE(int8_t(packed[kGemmActGroupBytes]), blocks[4].qs[0]);
        QCOMPARE(int(packed[kGemmActGroupBytes + 16 * 2 + 4 * 3]), 0);
        int sum = 0;
        for (int8_t q : blocks[1].qs)
            sum += q;
        int32_t corr[4];
        float dx[4];
        std::memcpy(corr, packed.data() + 128, sizeof corr);
        std::memcpy(dx, packed.data() + 144, sizeof dx);
        QCOMPARE(corr[1], -128 * sum);
        QCOMPARE(dx[3], fp16_to_fp32(blocks[3].d));
        std::memcpy(corr, packed.data() + kGemmActGroupBytes + 128, sizeof corr);
        std::memcpy(dx, packed.data() + kGemmActGroupBytes + 144, sizeof dx);
        QCOMPARE(corr[2], 0);
        QCOMPARE(dx[1], 0.0f);
    }

    // The reference's float order is the AVX2 vec_dot kernel's, so both agree bit for bit; both
    // are within float rounding of the float64 sum of the dequantized products.
    void referenceMatchesAvx2VecDotAndFloat64() {
        for (int64_t blocks = 1; blocks <= 9; ++blocks)
            for (int64_t t : {1, 3, 4, 7}) {
                const int64_t k = 32 * blocks, n = 6;
                const auto w = random_q8_0_weight(k, n, static_cast<uint32_t>(blocks));
                const auto x = random_activations(k, t, static_cast<uint32_t>(100 + blocks));
                const QuantizedActivations xq = quantize(x, k, t);
                const auto y_ref = reference_gemm(w, k, n, xq);
                const TensorView v = make_tensor_view(DType::Q8_0, {k, n, 1, 1}, w.data());
                std::vector<float> y_avx2(static_cast<size_t>(n * t));
                QVERIFY(matmul(KernelContext{1, KernelPath::Avx2}, v, xq, y_avx2.data(), n));
                const auto* wb = reinterpret_cast<const BlockQ8_0*>(w.data());
                for (int64_t j = 0; j < t; ++j) {
                    const auto* xb = reinterpret_cast<const BlockQ8_0*>(xq.row(j));
                    for (int64_t r = 0; r < n; ++r) {
                        double exact = 0, magnitude = 0;
                        for (int64_t b = 0; b < blocks; ++b)
                            for (int i = 0; i < 32; ++i) {
                                const double p = double(fp16_to_fp32(wb[r * blocks + b].d)) *
                                                 wb[r * blocks + b].qs[i] * fp16_to_fp32(xb[b].d) *
                                                 xb[b].qs[i];
                                exact += p;
                                magnitude += std::fabs(p);
                            }
                        const float got = y_ref[j * n + r];
                        QVERIFY2(std::fabs(got - exact) <= 1e-6 * magnitude + 1e-30,
                                 qPrintable(QString("k=%1 t=%2 r=%3: %4 vs %5")
                                                .arg(k)
                                                .arg(j)
                                                .arg(r)
                                                .arg(got)
                                                .arg(exact)));
                        if (avx2_kernels_available())
                            QVERIFY2(same_bits(y_avx2[j * n + r], got),
                                     qPrintable(QString("k=%1 t=%2 r=%3: avx2 %4 vs ref %5")
                                                    .arg(k)
                                                    .arg(j)
                                                    .arg(r)
                                                    .arg(y_avx2[j * n + r], 0, 'g', 9)
                                                    .arg(got, 0, 'g', 9)));
                    }
                }
            }
    }

    // The AVX-512 packers (what gemm_q8_0 uses) write the scalar packers' bytes: every weight
    // type, K of an odd number of blocks (partial last group) and of full groups, rows not a
    // multiple of the chunk (tail chunks with padding rows), every chunk of the weight.
    void avx512PackersEqualScalarPackers() {
        if (!avx512_vnni_kernels_available())
            QSKIP("this CPU has no AVX-512 VNNI: the GEMM is never used here");
        int checked = 0;
        for (DType t : {DType::Q8_0, DType::Q4_0, DType::Q5_0, DType::IQ4_NL, DType::MXFP4})
            for (int64_t blocks : {1, 3, 4, 5, 8, 13, 64})
                for (int64_t n : {1, 7, 16, 37}) {
                    const int64_t k = 32 * blocks;
                    const auto w = random_weight_as_q8_0(t, k, n, static_cast<uint32_t>(k + n)).w;
                    const TensorView v = make_tensor_view(t, {k, n, 1, 1}, w.data());
                    const size_t bytes = 4 * gemm_groups(k) * kGemmWeightGroupBytes;
                    for (int64_t n0 = 0; n0 < n; n0 += kGemmRows) {
                        std::vector<uint8_t> scalar(bytes, 0x11), fast(bytes, 0xEE);
                        gemm_pack_q8_0_weights(v, n0, scalar.data());
                        const uint8_t* rows[kGemmRows];
                        for (int64_t r = 0; r < kGemmRows; ++r)
                            rows[r] = n0 + r < n ? v.row(n0 + r) : nullptr;
                        avx512::gemm_pack_q8_0_weights(t, rows, k, fast.data());
                        for (size_t i = 0; i < bytes; ++i)
                            if (scalar[i] != fast[i])
                                QFAIL(qPrintable(
                                    QString("%1 k=%2 n=%3 n0=%4 byte %5: %6 vs "
                                            "scalar %7")
                                        .arg(QString::fromUtf8(dtype_name(t).data(),
                                                               qsizetype(dtype_name(t).size())))
                                        .arg(k)
                                        .arg(n)
                                        .arg(n0)
                                        .arg(i)
                                        .arg(fast[i])
                                        .arg(scalar[i])));
                        ++checked;
                    }
                }
        QCOMPARE(checked, 5 * 7 * (1 + 1 + 1 + 3)); // MXFP4: random bytes, so every exponent e
        // Activations: the same K, real rows and the zero row.
        for (int64_t blocks : {1, 3, 4, 5, 8, 13, 64}) {
            const int64_t k = 32 * blocks;
            const QuantizedActivations xq =
                quantize(random_activations(k, 1, static_cast<uint32_t>(blocks)), k, 1);
            const auto* scales =
                reinterpret_cast<const float*>(xq.row(0) + q8_0_act_layout(k).scales);
            const size_t bytes = gemm_groups(k) * kGemmActGroupBytes;
            for (bool zero_row : {false, true}) {
                std::vector<uint8_t> scalar(bytes, 0x11), fast(bytes, 0xEE);
                gemm_pack_q8_0_activations(zero_row ? nullptr : xq.row(0), k, scalar.data());
                avx512::gemm_pack_q8_0_activations(zero_row ? nullptr : xq.row(0),
                                                   zero_row ? nullptr : scales, k, fast.data());
                for (size_t i = 0; i < bytes; ++i)
                    if (scalar[i] != fast[i])
                        QFAIL(qPrintable(QString("activations k=%1 zero=%2 byte %3: %4 vs "
                                                 "scalar %5")
                                             .arg(k)
                                             .arg(zero_row)
                                             .arg(i)
                                             .arg(fast[i])
                                             .arg(scalar[i])));
            }
        }
    }

    // The AVX-512 kernel on every token count 1..67 (so every token tile edge), rows that are
    // not multiples of the 8-row register tile or the 16-row chunk, K of 1..9 blocks.
    void avx512GemmEqualsReferenceOnOddShapes() { gemmEqualsReferenceOnOddShapes(gemm_q8_0); }
    // The AVX2 kernel (what CPUs without AVX-512 VNNI run), whatever this CPU has beyond AVX2.
    void avx2GemmEqualsReferenceOnOddShapes() {
        if (!avx2_kernels_available())
            QSKIP("this CPU has no AVX2");
        gemmEqualsReferenceOnOddShapes(gemm_q8_0_avx2);
    }

    // Q4_0, Q5_0 and IQ4_NL weights are packed as the equal Q8_0 blocks: the GEMM gives the Q8_0
    // reference's bits on the equivalent Q8_0 weight, and stays within float rounding of the
    // type's own AVX2 vec_dot kernel (1e-6 of Σ |products|, as the reference against float64).
    void unpackedTypesEqualTheirQ8_0Equivalent() {
        if (!gemm_q8_0_available(KernelPath::Auto) || !avx2_kernels_available())
            QSKIP("this CPU has no AVX2: the GEMM is never used here");
        for (DType type : {DType::Q4_0, DType::Q5_0, DType::IQ4_NL}) {
            QVERIFY(gemm_q8_0_weight_type(type));
            for (int64_t blocks : {1, 5, 8})
                for (int64_t n : {3, 21}) {
                    const int64_t k = 32 * blocks, t = 33;
                    const auto wq = random_weight_as_q8_0(type, k, n, uint32_t(blocks * n));
                    const QuantizedActivations xq =
                        quantize(random_activations(k, t, uint32_t(n)), k, t);
                    const auto y_ref = reference_gemm(wq.as_q8_0, k, n, xq);
                    const TensorView v = make_tensor_view(type, {k, n, 1, 1}, wq.w.data());
                    std::vector<float> y(y_ref.size()), y_avx2(y_ref.size()),
                        y_gemm_avx2(y_ref.size(), std::nanf(""));
                    QVERIFY(matmul(KernelContext{2, KernelPath::Auto}, v, xq, y.data(), n));
                    QVERIFY(matmul(KernelContext{2, KernelPath::Avx2}, v, xq, y_avx2.data(), n));
                    gemm_q8_0_avx2(KernelContext{2, KernelPath::Auto}, v, xq, y_gemm_avx2.data(),
                                   n);
                    const auto* wb = reinterpret_cast<const BlockQ8_0*>(wq.as_q8_0.data());
                    for (int64_t j = 0; j < t; ++j)
                        for (int64_t r = 0; r < n; ++r) {
                            const size_t at = static_cast<size_t>(j * n + r);
                            QVERIFY2(
                                same_bits(y[at], y_ref[at]),
                                qPrintable(QString("%1 k=%2 at %3").arg(int(type)).arg(k).arg(at)));
                            QVERIFY2(
                                same_bits(y_gemm_avx2[at], y_ref[at]),
                                qPrintable(
                                    QString("avx2 %1 k=%2 at %3").arg(int(type)).arg(k).arg(at)));
                            double magnitude = 0;
                            const auto* xb = reinterpret_cast<const BlockQ8_0*>(xq.row(j));
                            for (int64_t b = 0; b < blocks; ++b)
                                for (int i = 0; i < 32; ++i)
                                    magnitude +=
                                        std::fabs(double(fp16_to_fp32(wb[r * blocks + b].d)) *
                                                  wb[r * blocks + b].qs[i] * fp16_to_fp32(xb[b].d) *
                                                  xb[b].qs[i]);
                            QVERIFY(std::fabs(y[at] - y_avx2[at]) <= 2e-6 * magnitude + 1e-30);
                        }
                }
        }
    }

    // MXFP4 through the GEMM: its scales 2^(e-128) are packed as bf16, exact also where fp16 has
    // no such power of two (e < 104 or > 143). Against the float64 sum of the dequantized
    // products and the type's own AVX2 vec_dot kernel, within 2e-6 of Σ |products|, on odd
    // shapes (partial groups, padding rows, token tails).
    void mxfp4GemmWithExactScales() {
        if (!gemm_q8_0_available(KernelPath::Auto) || !avx2_kernels_available())
            QSKIP("this CPU has no AVX-512 VNNI: the GEMM is never used here");
        QVERIFY(gemm_q8_0_weight_type(DType::MXFP4) && gemm_q8_0_bf16_scales(DType::MXFP4));
        const uint8_t exponents[] = {1, 2, 60, 100, 103, 104, 120, 127, 143, 144, 160, 190, 0};
        for (int64_t blocks : {1, 5, 8, 13})
            for (int64_t n : {3, 21}) {
                const int64_t k = 32 * blocks, t = 37;
                std::mt19937 rng(static_cast<uint32_t>(blocks * 100 + n));
                std::vector<uint8_t> w(static_cast<size_t>(n * blocks) * sizeof(BlockMxfp4));
                for (auto& b : w)
                    b = static_cast<uint8_t>(rng());
                auto* wb = reinterpret_cast<BlockMxfp4*>(w.data());
                for (int64_t i = 0; i < n * blocks; ++i)
                    wb[i].e = exponents[(i * 7 + rng() % 3) % std::size(exponents)];
                const QuantizedActivations xq =
                    quantize(random_activations(k, t, uint32_t(n + blocks)), k, t);
                const TensorView v = make_tensor_view(DType::MXFP4, {k, n, 1, 1}, w.data());
                std::vector<float> y(static_cast<size_t>(n * t), std::nanf("")), y_avx2 = y,
                                                                                 y_gemm_avx2 = y;
                gemm_q8_0(KernelContext{2, KernelPath::Auto}, v, xq, y.data(), n);
                gemm_q8_0_avx2(KernelContext{2, KernelPath::Auto}, v, xq, y_gemm_avx2.data(), n);
                QVERIFY(matmul(KernelContext{2, KernelPath::Avx2}, v, xq, y_avx2.data(), n));
                for (int64_t j = 0; j < t; ++j) {
                    const auto* xb = reinterpret_cast<const BlockQ8_0*>(xq.row(j));
                    for (int64_t r = 0; r < n; ++r) {
                        double exact = 0, magnitude = 0;
                        for (int64_t b = 0; b < blocks; ++b) {
                            const BlockMxfp4& blk = wb[r * blocks + b];
                            const double d =
                                std::ldexp(1.0, int(blk.e) - 128) * fp16_to_fp32(xb[b].d);
                            for (int i = 0; i < 32; ++i) {
                                const int nib = i < 16 ? blk.qs[i] & 0xF : blk.qs[i - 16] >> 4;
                                const double p = d * kMxfp4Values[nib] * xb[b].qs[i];
                                exact += p;
                                magnitude += std::fabs(p);
                            }
                        }
                        const float got = y[static_cast<size_t>(j * n + r)];
                        QVERIFY2(std::fabs(got - exact) <= 2e-6 * magnitude + 1e-37,
                                 qPrintable(QString("k=%1 n=%2 t=%3 r=%4: %5 vs %6")
                                                .arg(k)
                                                .arg(n)
                                                .arg(j)
                                                .arg(r)
                                                .arg(got, 0, 'g', 9)
                                                .arg(exact, 0, 'g', 17)));
                        QVERIFY(std::fabs(got - y_avx2[static_cast<size_t>(j * n + r)]) <=
                                4e-6 * magnitude + 1e-37);
                        // The two GEMM forms: the same int32 sums and float steps.
                        QVERIFY(same_bits(got, y_gemm_avx2[static_cast<size_t>(j * n + r)]));
                    }
                }
            }
    }

    // Through the public API: matmul (Auto) takes the GEMM from kGemmMinTokens tokens on and
    // gives the vec_dot path's bits (pinned to KernelPath::Avx2), also with an output stride
    // wider than N and for gathered expert rows.
    void matmulWithGemmEqualsVecDotPath() {
        if (!gemm_q8_0_available(KernelPath::Auto) || !avx2_kernels_available())
            QSKIP("this CPU has no AVX-512 VNNI: the GEMM is never used here");
        const int64_t k = 7 * 32 + 128, n = 45, e = 3, ys = n + 3;
        const auto w = random_q8_0_weight(k, n * e, 5);
        const TensorView experts = make_tensor_view(DType::Q8_0, {k, n, e, 1}, w.data());
        for (int64_t t : {kGemmMinTokens - 1, kGemmMinTokens, int64_t{66}}) {
            const auto x = random_activations(k, t, static_cast<uint32_t>(t));
            for (int threads : {1, 2}) {
                std::vector<float> y_auto(static_cast<size_t>(ys * t), -1.0f), y_avx2 = y_auto;
                QVERIFY(matmul_expert(KernelContext{threads, KernelPath::Auto}, experts, 1,
                                      x.data(), k, t, y_auto.data(), ys));
                QVERIFY(matmul_expert(KernelContext{threads, KernelPath::Avx2}, experts, 1,
                                      x.data(), k, t, y_avx2.data(), ys));
                for (size_t i = 0; i < y_auto.size(); ++i)
                    QVERIFY2(same_bits(y_auto[i], y_avx2[i]), qPrintable(QString::number(i)));
                std::vector<int32_t> ids;
                for (int64_t i = t - 1; i >= 0; i -= 2)
                    ids.push_back(static_cast<int32_t>(i));
                if (static_cast<int64_t>(ids.size()) < kGemmMinTokens)
                    continue;
                std::fill(y_auto.begin(), y_auto.end(), -1.0f);
                y_avx2 = y_auto;
                QVERIFY(matmul_expert_gathered(
                    KernelContext{threads, KernelPath::Auto}, experts, 2, x.data(), k, t,
                    ids.data(), static_cast<int64_t>(ids.size()), y_auto.data(), ys));
                QVERIFY(matmul_expert_gathered(
                    KernelContext{threads, KernelPath::Avx2}, experts, 2, x.data(), k, t,
                    ids.data(), static_cast<int64_t>(ids.size()), y_avx2.data(), ys));
                for (size_t i = 0; i < y_auto.size(); ++i)
                    QVERIFY2(same_bits(y_auto[i], y_avx2[i]), qPrintable(QString::number(i)));
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestGemm)
#include "test_gemm.moc"
