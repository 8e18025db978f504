// matmul (every weight type, both paths when the CPU has AVX2) against its scalar reference on odd
// shapes and against float64 formulas; the slices / shared-input forms; the activation
// quantizers. The AVX-512 dots: test_kernels_avx512.cpp; row ops: test_kernels_ops.cpp.
#include "kernels_test_util.h"

#include <QtTest>

class TestKernels : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        qInfo("fast path: %s", kernel_table(KernelPath::Auto).name);
        QCOMPARE(QString(kernel_table(KernelPath::Reference).name), QString("reference"));
    }

    void matmulAgainstReferenceAndFloat64_data() {
        QTest::addColumn<int>("type");
        for (DType t : {DType::F32, DType::F16, DType::BF16, DType::Q8_0, DType::Q4_0, DType::MXFP4,
                        DType::Q4_K, DType::Q6_K})
            QTest::newRow(std::string(dtype_name(t)).c_str()) << int(t);
    }

    // Tolerances:
    //  * fast vs reference: the integer block sums are identical; only the order of the float
    //    accumulation differs (per block/super-block partial sums, 8 lanes + horizontal sum), so
    //    the difference is bounded by a few ulp of Σ|w·x|: we allow 1e-5·Σ|w_k·x_k| (K ≤ 800
    //    gives < 100 float additions per output, 100·2^-24 ≈ 6e-6).
    //  * vs float64 of dequantized weights × f32 activations: activation quantization rounds each
    //    x_k by at most half a step (amax_block/127/2, plus the fp16 rounding of d for Q8_0), so
    //    |error| ≤ Σ_k |w_k|·amax_block(k)/254·(1 + 2^-10) plus float rounding; F32/F16/BF16 use
    //    f32 activations and only get the float rounding term.
    void matmulAgainstReferenceAndFloat64() {
        QFETCH(int, type);
        const DType t = static_cast<DType>(type);
        const DType af = activation_format(t);
        const int64_t block = af == DType::Q8_K ? 256 : 32;
        // K: multiples of the block size that exercise the 4-block groups and their tails
        // (224 = 7 blocks, 800 = 25 blocks) and, for float weights, a length that is not a
        // multiple of the vector width.
        const std::vector<int64_t> ks = block == 256        ? std::vector<int64_t>{256, 768}
                                        : af == DType::Q8_0 ? std::vector<int64_t>{224, 800}
                                                            : std::vector<int64_t>{37, 800};
        for (int64_t k : ks) {
            for (int64_t n : {1, 3, 17, 67}) {
                Weight w = make_weight(t, k, n, 1, static_cast<uint32_t>(k * 131 + n));
                for (int64_t tok : {1, 2, 5, 33}) {
                    auto x =
                        random_normal(static_cast<size_t>(k * tok), static_cast<uint32_t>(tok));
                    auto y_ref = run_matmul(kRef, w.view, x, tok);
                    auto y_f1 = run_matmul(kFast1, w.view, x, tok);
                    auto y_f2 = run_matmul(kFast2, w.view, x, tok);
                    for (int64_t tt = 0; tt < tok; ++tt) {
                        for (int64_t r = 0; r < n; ++r) {
                            double exact = 0, abs_sum = 0, quant_bound = 0;
                            for (int64_t i = 0; i < k; ++i) {
                                const double wv = w.deq[r * k + i], xv = x[tt * k + i];
                                exact += wv * xv;
                                abs_sum += std::fabs(wv * xv);
                                if (af != DType::F32) {
                                    float amax = 0;
                                    const int64_t b0 = i / block * block;
                                    for (int64_t j = b0; j < b0 + block; ++j)
                                        amax = std::max(amax, std::fabs(x[tt * k + j]));
                                    quant_bound += std::fabs(wv) * amax / 254.0 * (1 + 1.0 / 1024);
                                }
                            }
                            const size_t idx = static_cast<size_t>(tt * n + r);
                            const double tol_fast = 1e-5 * abs_sum + 1e-6;
                            QVERIFY2(std::fabs(y_f1[idx] - y_ref[idx]) <= tol_fast,
                                     qPrintable(QString("k=%1 n=%2 t=%3 ref %4 fast %5")
                                                    .arg(k)
                                                    .arg(r)
                                                    .arg(tt)
                                                    .arg(y_ref[idx])
                                                    .arg(y_f1[idx])));
                            QCOMPARE(y_f2[idx], y_f1[idx]); // thread count never changes bits
                            const double tol64 = quant_bound + 1e-5 * abs_sum + 1e-6;
                            QVERIFY2(std::fabs(y_ref[idx] - exact) <= tol64,
                                     qPrintable(QString("k=%1 n=%2 t=%3 ref %4 exact %5 tol %6")
                                                    .arg(k)
                                                    .arg(r)
                                                    .arg(tt)
                                                    .arg(y_ref[idx])
                                                    .arg(exact)
                                                    .arg(tol64)));
                        }
                    }
                }
            }
        }
    }

    // IQ4_NL at its extreme values (-127 everywhere, or 113) against activations that quantize
    // to ±127: two blocks' int16 products would overflow if added before widening (the fast
    // kernel takes four blocks per step). K = 160: one 4-block step and a tail block.
    void iq4nlExtremeValuesMatchReference() {
        for (uint8_t nibbles : {uint8_t{0x00}, uint8_t{0xFF}, uint8_t{0xF0}})
            for (float sign : {1.0f, -1.0f}) {
                const int64_t k = 160;
                std::vector<BlockIQ4NL> w(k / 32);
                for (auto& b : w) {
                    b.d = 0x3C00; // 1.0
                    std::fill(std::begin(b.qs), std::end(b.qs), nibbles);
                }
                std::vector<float> x(k);
                for (int64_t i = 0; i < k; ++i)
                    x[i] = (i % 2 ? sign : 1.0f) * 3.0f;
                TensorView v = make_tensor_view(DType::IQ4_NL, {k, 1, 1, 1}, w.data());
                float y_ref = 0, y_fast = 0;
                QVERIFY(matmul(kRef, v, x.data(), k, 1, &y_ref, 1));
                QVERIFY(matmul(kFast1, v, x.data(), k, 1, &y_fast, 1));
                QVERIFY2(std::fabs(y_fast - y_ref) <= 1e-5f * (1.0f + std::fabs(y_ref)),
                         qPrintable(QString("nibbles %1 sign %2: ref %3 fast %4")
                                        .arg(nibbles)
                                        .arg(sign)
                                        .arg(y_ref)
                                        .arg(y_fast)));
            }
    }

    // Q3_K and IQ4_XS from random bytes (every 6-bit scale code, every hmask bit, every nibble)
    // against the reference dot: their fast kernels unpack the scales in registers. Within 1e-5
    // of Σ |w·x| (float order).
    void randomBytesKquantsMatchReference() {
        for (DType t : {DType::Q3_K, DType::IQ4_XS})
            for (int64_t k : {256, 768, 2816}) {
                const WeightType& wt = *find_weight_type(t);
                const int64_t n = 9;
                Weight w = make_weight(t, k, n, 1, static_cast<uint32_t>(k + 11));
                // Every byte but the fp16 d (Q3_K: the block's last 2 bytes, IQ4_XS: its first 2).
                const size_t block = t == DType::Q3_K ? sizeof(BlockQ3K) : sizeof(BlockIQ4XS);
                const size_t d_at = t == DType::Q3_K ? block - 2 : 0;
                std::mt19937 rng(static_cast<uint32_t>(k));
                for (size_t i = 0; i < w.bytes.size(); ++i)
                    if (i % block != d_at && i % block != d_at + 1)
                        w.bytes[i] = static_cast<uint8_t>(rng());
                std::vector<float> deq(static_cast<size_t>(k));
                for (int64_t tok : {1, 3}) {
                    const auto x = random_normal(static_cast<size_t>(k * tok), 17);
                    const auto y_ref = run_matmul(kRef, w.view, x, tok);
                    const auto y_fast = run_matmul(kFast1, w.view, x, tok);
                    for (int64_t r = 0; r < n; ++r) {
                        wt.dequantize(w.bytes.data() + r * w.view.nb[1], deq.data(), k);
                        for (int64_t tt = 0; tt < tok; ++tt) {
                            double abs_sum = 0;
                            for (int64_t i = 0; i < k; ++i)
                                abs_sum += std::fabs(deq[i] * x[tt * k + i]);
                            const size_t at = static_cast<size_t>(tt * n + r);
                            QVERIFY2(std::fabs(y_fast[at] - y_ref[at]) <= 1e-5 * abs_sum + 1e-6,
                                     qPrintable(QString("%1 k=%2 row %3 token %4: ref %5 fast %6")
                                                    .arg(QString::fromStdString(
                                                        std::string(dtype_name(t))))
                                                    .arg(k)
                                                    .arg(r)
                                                    .arg(tt)
                                                    .arg(y_ref[at])
                                                    .arg(y_fast[at])));
                        }
                    }
                }
            }
    }

    // Few output rows, many tokens: the work is tiled over token blocks as well (matmul.cpp);
    // every tile must land in the right place whatever the thread count.
    void matmulManyTokensFewRows() {
        for (DType t : {DType::F32, DType::Q8_0, DType::MXFP4, DType::Q4_K}) {
            const int64_t k = 256, n = 3, tok = 130;
            Weight w = make_weight(t, k, n, 1, 5);
            auto x = random_normal(static_cast<size_t>(k * tok), 6);
            auto y_ref = run_matmul(kRef, w.view, x, tok);
            auto y1 = run_matmul(kFast1, w.view, x, tok);
            auto y2 = run_matmul(kFast2, w.view, x, tok);
            for (size_t i = 0; i < y_ref.size(); ++i) {
                QCOMPARE(y2[i], y1[i]);
                QVERIFY(std::fabs(y1[i] - y_ref[i]) <= 1e-4f * (1 + std::fabs(y_ref[i])));
            }
        }
    }

    void mxfp4ExtremeScales() {
        const int64_t k = 160; // 4-block groups plus one tail block
        std::vector<BlockMxfp4> w(k / 32);
        std::vector<float> x(k);
        for (int64_t i = 0; i < k; ++i)
            x[i] = 1.0f + static_cast<float>(i % 7);
        for (int e : {0, 1, 2, 127, 200}) {
            for (size_t b = 0; b < w.size(); ++b) {
                w[b].e = static_cast<uint8_t>(e);
                for (int j = 0; j < 16; ++j)
                    w[b].qs[j] = static_cast<uint8_t>((j + b) % 16 | (((j * 3 + b) % 16) << 4));
            }
            TensorView v = make_tensor_view(DType::MXFP4, {k, 1, 1, 1}, w.data());
            float y_ref = 0, y_fast = 0;
            QVERIFY(matmul(kRef, v, x.data(), k, 1, &y_ref, 1));
            QVERIFY(matmul(kFast1, v, x.data(), k, 1, &y_fast, 1));
            QVERIFY2(y_ref != 0 && std::fabs(y_fast - y_ref) <= 1e-6f * std::fabs(y_ref),
                     qPrintable(QString("e=%1 ref %2 fast %3").arg(e).arg(y_ref).arg(y_fast)));
        }
    }

    void activationQuantizersIdenticalOnBothPaths() {
        auto x = random_normal(1024, 5);
        x[3] = 0.0f;
        std::fill(x.begin() + 64, x.begin() + 96, 0.0f); // an all-zero block
        x[200] = 2.5f * 127.0f / 3.0f;
        for (DType w : {DType::Q8_0, DType::Q4_K}) {
            QuantizedActivations a, b;
            QVERIFY(quantize_activations(kRef, w, x.data(), 1024, 1, 1024, &a));
            QVERIFY(quantize_activations(kFast1, w, x.data(), 1024, 1, 1024, &b));
            QCOMPARE(a.storage.size(), b.storage.size());
            QVERIFY(a.storage == b.storage);
        }
    }

    void expertMatmulUsesTheSliceWithoutCopy() {
        for (DType t : {DType::Q8_0, DType::Q4_K, DType::MXFP4, DType::F32}) {
            const int64_t k = 256, n = 5, e_count = 3, tok = 4;
            Weight w = make_weight(t, k, n, e_count, 77);
            auto x = random_normal(static_cast<size_t>(k * tok), 8);
            for (int64_t e = 0; e < e_count; ++e) {
                std::vector<float> y(static_cast<size_t>(n * tok));
                QVERIFY(matmul_expert(kFast2, w.view, e, x.data(), k, tok, y.data(), n));
                // The same slice as a separate 2-D tensor.
                TensorView slice = make_tensor_view(t, {k, n, 1, 1},
                                                    w.bytes.data() + e * n * dtype_row_bytes(t, k));
                auto y2 = run_matmul(kFast2, slice, x, tok);
                for (size_t i = 0; i < y.size(); ++i)
                    QCOMPARE(y[i], y2[i]);
                // Gathered: tokens 3 and 1 only, scattered back into their rows.
                std::vector<float> g(static_cast<size_t>(n * tok), -1.0f);
                const int32_t ids[2] = {3, 1};
                QVERIFY(matmul_expert_gathered(kFast2, w.view, e, x.data(), k, tok, ids, 2,
                                               g.data(), n));
                for (int64_t r = 0; r < n; ++r) {
                    QCOMPARE(g[3 * n + r], y[3 * n + r]);
                    QCOMPARE(g[1 * n + r], y[1 * n + r]);
                    QCOMPARE(g[0 * n + r], -1.0f);
                    QCOMPARE(g[2 * n + r], -1.0f);
                }
            }
            std::vector<float> y(static_cast<size_t>(n * tok));
            const int32_t bad_ids[1] = {static_cast<int32_t>(tok)};
            QVERIFY(!matmul_expert_gathered(kRef, w.view, 0, x.data(), k, tok, bad_ids, 1, y.data(),
                                            n));
            auto bad = matmul_expert(kRef, w.view, e_count, x.data(), k, 1, y.data(), n);
            QVERIFY(!bad);
            QCOMPARE(bad.error().code, ErrorCode::InvalidArgument);
        }
    }

    // Decode's one-region forms against the per-matrix matmul: matmul_slices (every slice of a
    // 3-D weight with its own input row, outputs at a stride) and matmul_one_input (weights
    // sharing the input). The same bits as matmul_expert / matmul on the same path and thread
    // count (decode and the batch path must agree), and within float rounding of the plain
    // reference kernels (an independent check). Shapes on both sides of the one-thread limit,
    // row counts that split unevenly over the threads and over the 4-row kernels.
    void slicesAndSharedInputMatchMatmul() {
        const KernelContext fast2{2, KernelPath::Auto}, fast1{1, KernelPath::Auto};
        struct Shape {
            DType t;
            int64_t k, n, h;
        };
        const Shape shapes[] = {{DType::Q5_0, 64, 256, 16}, {DType::Q5_0, 384, 37, 3},
                                {DType::Q4_K, 256, 64, 16}, {DType::Q4_K, 2048, 45, 3},
                                {DType::Q8_0, 96, 7, 5},    {DType::Q8_0, 2048, 61, 2},
                                {DType::Q6_K, 512, 33, 4},  {DType::MXFP4, 160, 29, 3},
                                {DType::F32, 33, 19, 2},    {DType::IQ4_NL, 1024, 130, 2}};
        for (const Shape& sh : shapes) {
            Weight w = make_weight(sh.t, sh.k, sh.n, sh.h, 31);
            const int64_t x_stride = sh.k + 3, y_stride = sh.n + 5;
            const auto x = random_normal(static_cast<size_t>(x_stride * sh.h), 32);
            for (const KernelContext& ctx : {fast1, fast2}) {
                std::vector<float> y(static_cast<size_t>(y_stride * sh.h), -7.0f);
                QVERIFY(matmul_slices(ctx, w.view, x.data(), x_stride, y.data(), y_stride));
                for (int64_t h = 0; h < sh.h; ++h) {
                    std::vector<float> one(static_cast<size_t>(sh.n)), ref(one.size());
                    QVERIFY(matmul_expert(ctx, w.view, h, x.data() + h * x_stride, sh.k, 1,
                                          one.data(), sh.n));
                    QVERIFY(matmul_expert(kRef, w.view, h, x.data() + h * x_stride, sh.k, 1,
                                          ref.data(), sh.n));
                    for (int64_t r = 0; r < sh.n; ++r) {
                        const float got = y[h * y_stride + r];
                        QCOMPARE(got, one[r]);
                        double mag = 0; // Σ|w·x|: the scale of the rounding
                        for (int64_t i = 0; i < sh.k; ++i)
                            mag += std::fabs(double(w.deq[(h * sh.n + r) * sh.k + i]) *
                                             x[h * x_stride + i]);
                        QVERIFY2(std::fabs(got - ref[r]) <= 1e-4 * mag + 1e-6,
                                 qPrintable(
                                     QString("%1 slice %2 row %3: %4 vs %5")
                                         .arg(QString::fromStdString(std::string(dtype_name(sh.t))))
                                         .arg(h)
                                         .arg(r)
                                         .arg(got)
                                         .arg(ref[r])));
                    }
                    for (int64_t r = sh.n; r < y_stride && h + 1 < sh.h; ++r)
                        QCOMPARE(y[h * y_stride + r], -7.0f); // the gaps stay untouched
                }
                // The slices as separate weights taking one input (the first slice's row).
                std::vector<TensorView> ws;
                std::vector<std::vector<float>> outs(static_cast<size_t>(sh.h));
                std::vector<float*> ys;
                for (int64_t h = 0; h < sh.h; ++h) {
                    auto v = slice_matrix(w.view, h);
                    QVERIFY(v);
                    ws.push_back(*v);
                    outs[h].assign(static_cast<size_t>(sh.n), std::nanf(""));
                    ys.push_back(outs[h].data());
                }
                QVERIFY(matmul_one_input(ctx, ws, x.data(), ys));
                for (int64_t h = 0; h < sh.h; ++h) {
                    std::vector<float> one(static_cast<size_t>(sh.n));
                    QVERIFY(matmul(ctx, ws[h], x.data(), sh.k, 1, one.data(), sh.n));
                    for (int64_t r = 0; r < sh.n; ++r)
                        QCOMPARE(outs[h][r], one[r]);
                }
            }
        }
        // Weights of different types (KDA's q, k, v, f_a, g_a, beta in one file: Q8_0 with F32,
        // or k-quants next to Q8_0): each gets its own conversion of the input, the same
        // numbers as matmul; weights of different K are refused.
        {
            const DType types[] = {DType::Q8_0, DType::Q4_K, DType::F32, DType::Q6_K, DType::Q8_0};
            const int64_t k = 512;
            std::vector<Weight> mixed;
            std::vector<TensorView> ws;
            std::vector<std::vector<float>> outs;
            std::vector<float*> ys;
            for (size_t i = 0; i < std::size(types); ++i) {
                mixed.push_back(make_weight(types[i], k, 9 + 4 * i, 1, 40 + i));
                outs.emplace_back(static_cast<size_t>(9 + 4 * i), std::nanf(""));
            }
            for (size_t i = 0; i < mixed.size(); ++i) {
                ws.push_back(mixed[i].view);
                ys.push_back(outs[i].data());
            }
            const auto x = random_normal(static_cast<size_t>(k), 41);
            for (const KernelContext& ctx : {fast1, fast2}) {
                QVERIFY(matmul_one_input(ctx, ws, x.data(), ys));
                for (size_t i = 0; i < ws.size(); ++i) {
                    std::vector<float> one(outs[i].size());
                    QVERIFY(matmul(ctx, ws[i], x.data(), k, 1, one.data(), ws[i].ne[1]));
                    for (size_t r = 0; r < one.size(); ++r)
                        QCOMPARE(outs[i][r], one[r]);
                }
            }
        }
        Weight a = make_weight(DType::Q4_K, 256, 4, 1, 1),
               b = make_weight(DType::Q4_K, 512, 4, 1, 2);
        std::vector<float> x(512, 1.0f), ya(4), yb(4);
        const TensorView ws[] = {a.view, b.view};
        float* const ys[] = {ya.data(), yb.data()};
        auto st = matmul_one_input(kFast2, ws, x.data(), ys);
        QVERIFY(!st);
        QCOMPARE(st.error().code, ErrorCode::InvalidArgument);
        // matmul_slices writes y_stride apart: a stride below N is refused.
        Weight c = make_weight(DType::Q8_0, 64, 8, 2, 3);
        std::vector<float> xc(128), yc(16);
        QVERIFY(!matmul_slices(kFast2, c.view, xc.data(), 64, yc.data(), 7));
    }

    void matmulRejectsBadShapes() {
        Weight w = make_weight(DType::Q4_K, 256, 2, 2, 1);
        std::vector<float> x(256), y(4);
        QVERIFY(!matmul(kRef, w.view, x.data(), 256, 1, y.data(), 2)); // 3-D weight
        std::vector<uint8_t> bytes(1000);
        TensorView q8k =
            make_tensor_view(DType::Q8_K, {256, 2, 1, 1}, bytes.data()); // activations only
        auto st = matmul(kRef, q8k, x.data(), 256, 1, y.data(), 2);
        QVERIFY(!st);
        QCOMPARE(st.error().code, ErrorCode::Unsupported);
    }

    void avx2PathIsUsedWhenAvailable() {
        if (!have_avx2())
            QSKIP("CPU without AVX2+FMA+F16C: only the reference path runs");
        QCOMPARE(QString(kernel_table(KernelPath::Avx2).name), QString("avx2"));
        QCOMPARE(QString(kernel_table(KernelPath::Auto).name), QString("avx2"));
    }
};

QTEST_APPLESS_MAIN(TestKernels)
#include "test_kernels.moc"
