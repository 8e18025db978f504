// The AVX-512 decode dots: equal to the AVX2 ones bit for bit where they keep its float order,
// within bounds of float64 sums where they have their own (skipped on CPUs without AVX-512 VNNI).
#include "kernels_test_util.h"

#include <QtTest>

class TestKernelsAvx512 : public QObject {
    Q_OBJECT
private slots:
    // The AVX-512 Q5_0 dots of short rows (below kQ5_0Blocks4MinK) against the AVX2 one, bit for
    // bit: odd and even block counts (the last block of an odd count takes the 256-bit step),
    // random nibbles and fifth bits; one token through the several-rows dot with 11, 19 and 30
    // rows (last groups of 3, 3 and 2), which is also called on every other row against the
    // one-row dot, for short and long rows (nibbleAvx512DotsMatchFloat64 checks the long ones'
    // values).
    void q5_0Avx512DotEqualsAvx2() {
        if (!avx512_vnni_kernels_available() || !have_avx2())
            QSKIP("this CPU has no AVX-512: that Q5_0 kernel is never used here");
        const WeightType& q5 = *find_weight_type(DType::Q5_0);
        QVERIFY(weight_dot(q5, KernelPath::Auto) != weight_dot(q5, KernelPath::Avx2));
        QVERIFY(weight_dot_rows(q5, KernelPath::Auto) != nullptr);
        int compared = 0, strided = 0;
        for (int64_t k : {32, 64, 96, 384, 416})
            for (int64_t n : {11, 19, 30}) {
                Weight w = make_weight(DType::Q5_0, k, n, 1, static_cast<uint32_t>(k + 3));
                std::mt19937 rng(static_cast<uint32_t>(k));
                auto* blocks = reinterpret_cast<BlockQ5_0*>(w.bytes.data());
                for (int64_t i = 0; i < n * k / 32; ++i) {
                    for (auto& b : blocks[i].qh)
                        b = static_cast<uint8_t>(rng());
                    for (auto& b : blocks[i].qs)
                        b = static_cast<uint8_t>(rng());
                }
                if (k < avx512::kQ5_0Blocks4MinK)
                    expect_auto_bits_equal_avx2(w, k, true, compared);
                if (QTest::currentTestFailed())
                    return;
                expect_rows_dot_bits_equal(w, DType::Q5_0, k, n, strided);
                if (QTest::currentTestFailed())
                    return;
            }
        QCOMPARE(compared, 3 * (11 + 19 + 30) * (1 + 2 + 3 + 4 + 7) * 2);
        QCOMPARE(strided, 5 * 3 * (1 + 2 + 3 + 4));
    }

    // The AVX-512 Q2_K, Q3_K and Q6_K dots against the AVX2 ones, bit for bit: K of 1, 3 and 11
    // super-blocks, weights from quantized normals and from random bytes (every scale and min
    // code, every hmask bit of Q3_K, every 4-bit Q2_K scale and min, every 6-bit value, negative
    // Q3_K / Q6_K scales); and the several-rows dots of those and of Q4_K and Q5_K (whose float
    // steps are their own: q8kAvx512DotsMatchFloat64) (1..4 rows of every other row) against the
    // one-row dot.
    void kquantAvx512DotsEqualAvx2() {
        if (!avx512_vnni_kernels_available() || !have_avx2())
            QSKIP("this CPU has no AVX-512: those k-quant kernels are never used here");
        int compared = 0, strided = 0;
        for (DType t : {DType::Q2_K, DType::Q3_K, DType::Q4_K, DType::Q5_K, DType::Q6_K}) {
            QVERIFY(weight_dot(*find_weight_type(t), KernelPath::Auto) !=
                    weight_dot(*find_weight_type(t), KernelPath::Avx2));
            for (int64_t k : {256, 768, 2816})
                for (bool random_bytes : {false, true}) {
                    const int64_t n = 13;
                    Weight w = make_weight(t, k, n, 1, static_cast<uint32_t>(k + 7));
                    if (random_bytes) {
                        // Every byte but the fp16 scales (d, dmin: the Q4_K and Q5_K blocks'
                        // first 4 bytes, the Q2_K block's last 4, the Q3_K and Q6_K blocks'
                        // last 2).
                        std::mt19937 rng(static_cast<uint32_t>(k));
                        const size_t block = t == DType::Q2_K   ? sizeof(BlockQ2K)
                                             : t == DType::Q3_K ? sizeof(BlockQ3K)
                                             : t == DType::Q4_K ? sizeof(BlockQ4K)
                                             : t == DType::Q5_K ? sizeof(BlockQ5K)
                                                                : sizeof(BlockQ6K);
                        const bool d_first = t == DType::Q4_K || t == DType::Q5_K;
                        const size_t skip_lo = d_first ? 4 : 0;
                        const size_t skip_hi = d_first ? 0 : t == DType::Q2_K ? 4 : 2;
                        for (size_t i = 0; i < w.bytes.size(); ++i) {
                            const size_t at = i % block;
                            if (at >= skip_lo && at < block - skip_hi)
                                w.bytes[i] = static_cast<uint8_t>(rng());
                        }
                    }
                    if (t != DType::Q4_K && t != DType::Q5_K)
                        expect_auto_bits_equal_avx2(w, k, false, compared);
                    if (QTest::currentTestFailed())
                        return;
                    expect_rows_dot_bits_equal(w, t, k, n, strided);
                    if (QTest::currentTestFailed())
                        return;
                }
        }
        QCOMPARE(compared, 3 * 3 * 2 * 13 * (1 + 2 + 3 + 4 + 7) * 2);
        QCOMPARE(strided, 5 * 3 * 2 * (1 + 2 + 3 + 4));
    }

    // The AVX-512 Q8_0 dot against the AVX2 one, bit for bit: rows of 1..3 blocks (no 4-block
    // step), 4, 5, 7, 8 and 67 blocks (steps and tails), weights of random bytes (every value,
    // -128 included) and quantized normals, 1..7 activation rows on 1 and 2 threads; and its
    // several-rows dot against the one-row dot.
    void q8_0Avx512DotEqualsAvx2() {
        if (!avx512_vnni_kernels_available() || !have_avx2())
            QSKIP("this CPU has no AVX-512: that Q8_0 kernel is never used here");
        const WeightType& q8 = *find_weight_type(DType::Q8_0);
        QVERIFY(weight_dot(q8, KernelPath::Auto) != weight_dot(q8, KernelPath::Avx2));
        QVERIFY(weight_dot_rows(q8, KernelPath::Auto) != nullptr);
        int compared = 0, strided = 0;
        for (int64_t blocks : {1, 2, 3, 4, 5, 7, 8, 67})
            for (bool random_bytes : {false, true}) {
                const int64_t k = 32 * blocks, n = 9;
                Weight w = make_weight(DType::Q8_0, k, n, 1, static_cast<uint32_t>(k + 11));
                if (random_bytes) {
                    std::mt19937 rng(static_cast<uint32_t>(k));
                    auto* b = reinterpret_cast<BlockQ8_0*>(w.bytes.data());
                    for (int64_t i = 0; i < n * blocks; ++i)
                        for (auto& q : b[i].qs)
                            q = static_cast<int8_t>(rng());
                    b[0].qs[0] = -128;
                }
                expect_auto_bits_equal_avx2(w, k, !random_bytes, compared);
                if (QTest::currentTestFailed())
                    return;
                expect_rows_dot_bits_equal(w, DType::Q8_0, k, n, strided);
                if (QTest::currentTestFailed())
                    return;
            }
        QCOMPARE(compared, 8 * 2 * 9 * (1 + 2 + 3 + 4 + 7) * 2);
        QCOMPARE(strided, 8 * 2 * (1 + 2 + 3 + 4));
    }

    // MXFP4 scales at the edges of E8M0 (subnormal 2^-128 / 2^-127, 2^-126, 1, 2^72): the AVX2
    // path's scale table must give the reference's bit patterns, so the results agree to float
    // rounding of the summation (1e-6 relative), including subnormal results.
    // The AVX-512 dots of MXFP4, Q4_0, IQ4_NL and Q5_0 (rows of 4 blocks or more; Q5_0's fifth
    // bits random) (KernelPath::Auto) keep their own float order,
    // so they are checked against the float64 sum of the dequantized weights times the
    // quantized activations: block counts that leave every tail (8-block steps, a 4-block step,
    // single blocks), random nibbles, scales of every size (MXFP4 exponents around 127 and the
    // subnormal e = 0, 1; fp16 d from tiny to large); 1..7 tokens, whose rows go through the
    // kernel 4, 3, 2 or 1 at a time and must give each token the one-token bits (the one-token
    // matmul takes the several-rows entry: 5 rows as 4 + 1).
    void nibbleAvx512DotsMatchFloat64() {
        QFETCH(int, type);
        const DType t = static_cast<DType>(type);
        if (!avx512_vnni_kernels_available())
            QSKIP("this CPU has no AVX-512: those kernels are never used here");
        const WeightType& wt = *find_weight_type(t);
        QVERIFY(weight_dot(wt, KernelPath::Auto) != weight_dot(wt, KernelPath::Avx2));
        const size_t block = dtype_row_bytes(t, 32);
        int compared = 0;
        for (int64_t blocks : {1, 3, 4, 5, 8, 9, 12, 13, 16, 25, 64}) {
            const int64_t k = 32 * blocks, n = 5;
            std::vector<uint8_t> wb(block * static_cast<size_t>(n * blocks));
            std::mt19937 rng(static_cast<uint32_t>(blocks));
            for (auto& byte : wb)
                byte = static_cast<uint8_t>(rng());
            for (size_t i = 0; i < wb.size() / block; ++i) {
                const bool tiny = static_cast<int64_t>(i) / blocks == 0; // row 0
                uint8_t* at = wb.data() + i * block;
                if (t == DType::MXFP4) {
                    at[0] = static_cast<uint8_t>(tiny ? rng() % 2 : 110 + rng() % 35);
                } else {
                    const uint16_t h = random_block_scale(rng, tiny);
                    std::memcpy(at, &h, 2);
                }
            }
            std::vector<float> deq(static_cast<size_t>(n * k));
            for (int64_t r = 0; r < n; ++r)
                QVERIFY(dequantize_row(t, wb.data() + r * blocks * block, deq.data() + r * k, k));
            const TensorView v = make_tensor_view(t, {k, n, 1, 1}, wb.data());
            const int64_t tokens = 7;
            const auto x = random_normal(static_cast<size_t>(k * tokens), 7u + blocks);
            QuantizedActivations xq;
            QVERIFY(quantize_activations(kRef, t, x.data(), k, tokens, k, &xq));
            std::vector<float> y(static_cast<size_t>(n * tokens)), y1(static_cast<size_t>(n));
            QVERIFY(matmul(KernelContext{1, KernelPath::Auto}, v, xq, y.data(), n));
            for (int64_t tt = 0; tt < tokens; ++tt) {
                const auto* xb = reinterpret_cast<const BlockQ8_0*>(xq.row(tt));
                QuantizedActivations one;
                QVERIFY(quantize_activations(kRef, t, x.data() + tt * k, k, 1, k, &one));
                QVERIFY(matmul(KernelContext{2, KernelPath::Auto}, v, one, y1.data(), n));
                for (int64_t r = 0; r < n; ++r) {
                    double exact = 0, magnitude = 0;
                    for (int64_t i = 0; i < k; ++i) {
                        const double p = double(deq[r * k + i]) * fp16_to_fp32(xb[i / 32].d) *
                                         xb[i / 32].qs[i % 32];
                        exact += p;
                        magnitude += std::fabs(p);
                    }
                    const float got = y[tt * n + r];
                    QVERIFY(magnitude > 0);
                    QVERIFY2(
                        std::fabs(got - exact) <= 1e-6 * magnitude,
                        qPrintable(QString("blocks=%1 token %2 row %3: %4 vs %5 (sum of |p| %6)")
                                       .arg(blocks)
                                       .arg(tt)
                                       .arg(r)
                                       .arg(got, 0, 'g', 9)
                                       .arg(exact, 0, 'g', 9)
                                       .arg(magnitude)));
                    QVERIFY2(
                        std::memcmp(&got, &y1[r], sizeof got) == 0,
                        qPrintable(QString("blocks=%1 token %2 row %3: %4 in a batch, %5 alone")
                                       .arg(blocks)
                                       .arg(tt)
                                       .arg(r)
                                       .arg(got, 0, 'g', 9)
                                       .arg(y1[r], 0, 'g', 9)));
                    ++compared;
                }
            }
        }
        QCOMPARE(compared, 11 * 5 * 7);
    }

    void nibbleAvx512DotsMatchFloat64_data() {
        QTest::addColumn<int>("type");
        for (DType t : {DType::MXFP4, DType::Q4_0, DType::IQ4_NL, DType::Q5_0})
            QTest::newRow(dtype_name(t).data()) << static_cast<int>(t);
    }

    // The AVX-512 dots of IQ4_XS (int32 sums scaled per sub-block, one FMA per super-block), Q4_K
    // and Q5_K (d and dmin of a super-block in one 512-bit FMA) keep their own float order:
    // against the float64 sum of the dequantized weights times the quantized Q8_K activations,
    // random nibbles, fifth bits and 6-bit scales and mins, fp16 d (and dmin) from tiny to large,
    // 1..7 super-blocks. The bound is relative to the sum of |products| of the scaled values and of
    // the mins apart (the kernels sum them apart). 7 tokens through the kernel 4 and 3 at a time
    // give each token its one-token bits.
    void q8kAvx512DotsMatchFloat64() {
        QFETCH(int, type);
        const DType t = static_cast<DType>(type);
        if (!avx512_vnni_kernels_available())
            QSKIP("this CPU has no AVX-512: that kernel is never used here");
        const WeightType& wt = *find_weight_type(t);
        QVERIFY(weight_dot(wt, KernelPath::Auto) != weight_dot(wt, KernelPath::Avx2));
        // Every block starts with its fp16 d; Q4_K and Q5_K follow it with dmin.
        const bool has_min = t != DType::IQ4_XS;
        const size_t block = dtype_row_bytes(t, 256);
        int compared = 0;
        for (int64_t blocks : {1, 2, 3, 7}) {
            const int64_t k = 256 * blocks, n = 5, tokens = 7;
            const size_t row_bytes = block * static_cast<size_t>(blocks);
            std::vector<uint8_t> wb(row_bytes * n);
            std::mt19937 rng(static_cast<uint32_t>(blocks + 40 + type));
            for (auto& byte : wb)
                byte = static_cast<uint8_t>(rng());
            // The same weights with dmin = 0 (the scaled values alone) and with d = 0 (the
            // mins alone), for the bound.
            std::vector<uint8_t> scaled = wb, mins = wb;
            for (size_t i = 0; i < wb.size() / block; ++i) {
                const bool tiny = static_cast<int64_t>(i) / blocks == 0; // row 0
                const uint16_t d = random_block_scale(rng, tiny), zero = 0;
                const uint16_t dmin = has_min ? random_block_scale(rng, tiny) : zero;
                std::memcpy(wb.data() + i * block, &d, 2);
                std::memcpy(scaled.data() + i * block, &d, 2);
                std::memcpy(mins.data() + i * block, &zero, 2);
                if (has_min) {
                    std::memcpy(wb.data() + i * block + 2, &dmin, 2);
                    std::memcpy(scaled.data() + i * block + 2, &zero, 2);
                    std::memcpy(mins.data() + i * block + 2, &dmin, 2);
                }
            }
            std::vector<float> deq(static_cast<size_t>(n * k)), deq_scaled(deq.size()),
                deq_mins(deq.size());
            for (int64_t r = 0; r < n; ++r) {
                QVERIFY(dequantize_row(t, wb.data() + r * row_bytes, deq.data() + r * k, k));
                QVERIFY(
                    dequantize_row(t, scaled.data() + r * row_bytes, deq_scaled.data() + r * k, k));
                QVERIFY(dequantize_row(t, mins.data() + r * row_bytes, deq_mins.data() + r * k, k));
            }
            const TensorView v = make_tensor_view(t, {k, n, 1, 1}, wb.data());
            const auto x = random_normal(static_cast<size_t>(k * tokens), 9u + blocks);
            QuantizedActivations xq;
            QVERIFY(quantize_activations(kRef, t, x.data(), k, tokens, k, &xq));
            std::vector<float> y(static_cast<size_t>(n * tokens)), y1(static_cast<size_t>(n));
            QVERIFY(matmul(KernelContext{1, KernelPath::Auto}, v, xq, y.data(), n));
            for (int64_t tt = 0; tt < tokens; ++tt) {
                const auto* xb = reinterpret_cast<const BlockQ8K*>(xq.row(tt));
                QuantizedActivations one;
                QVERIFY(quantize_activations(kRef, t, x.data() + tt * k, k, 1, k, &one));
                QVERIFY(matmul(KernelContext{2, KernelPath::Auto}, v, one, y1.data(), n));
                for (int64_t r = 0; r < n; ++r) {
                    double exact = 0, magnitude = 0;
                    for (int64_t i = 0; i < k; ++i) {
                        const double xi = double(xb[i / 256].d) * xb[i / 256].qs[i % 256];
                        exact += double(deq[r * k + i]) * xi;
                        magnitude += std::fabs(double(deq_scaled[r * k + i]) * xi) +
                                     std::fabs(double(deq_mins[r * k + i]) * xi);
                    }
                    const float got = y[tt * n + r];
                    QVERIFY(magnitude > 0);
                    QVERIFY2(std::fabs(got - exact) <= 1e-6 * magnitude,
                             qPrintable(QString("blocks=%1 token %2 row %3: %4 vs %5 (%6)")
                                            .arg(blocks)
                                            .arg(tt)
                                            .arg(r)
                                            .arg(got, 0, 'g', 9)
                                            .arg(exact, 0, 'g', 9)
                                            .arg(magnitude)));
                    QVERIFY(std::memcmp(&y1[r], &got, sizeof(float)) == 0);
                    ++compared;
                }
            }
        }
        QCOMPARE(compared, 4 * 5 * 7);
    }

    void q8kAvx512DotsMatchFloat64_data() {
        QTest::addColumn<int>("type");
        for (DType t : {DType::IQ4_XS, DType::Q4_K, DType::Q5_K})
            QTest::newRow(dtype_name(t).data()) << static_cast<int>(t);
    }
};

QTEST_APPLESS_MAIN(TestKernelsAvx512)
#include "kernels/weight_rows.h"
#include "test_kernels_avx512.moc"
