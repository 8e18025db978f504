// Row kernels (get_rows, norms, softmax, activations, RoPE / YaRN) on both paths against their
// scalar references and float64 formulas.
#include "kernels_test_util.h"

#include <QtTest>

class TestKernelsOps : public QObject {
    Q_OBJECT
private slots:
    void getRows() {
        for (DType t : {DType::F32, DType::BF16, DType::Q6_K, DType::MXFP4}) {
            Weight w = make_weight(t, 256, 7, 1, 9);
            const int32_t ids[3] = {6, 0, 6};
            std::vector<float> out(3 * 256);
            QVERIFY(get_rows(kFast2, w.view, ids, 3, out.data(), 256));
            for (int i = 0; i < 3; ++i)
                for (int j = 0; j < 256; ++j)
                    QCOMPARE(out[i * 256 + j], w.deq[ids[i] * 256 + j]);
            const int32_t bad_ids[2] = {1, 7};
            auto st = get_rows(kRef, w.view, bad_ids, 2, out.data(), 256);
            QVERIFY(!st);
            QCOMPARE(st.error().code, ErrorCode::InvalidArgument);
            const int32_t neg[1] = {-1};
            QVERIFY(!get_rows(kRef, w.view, neg, 1, out.data(), 256));
        }
    }

    // RMSNorm / L2 norm vs double; fast vs reference. Both accumulate the squares in double and
    // scale in f32, so they differ by at most an ulp or two of each output: 2e-6 relative.
    void norms() {
        for (int64_t n : {1, 7, 8, 64, 129, 7168}) {
            auto x = random_normal(static_cast<size_t>(n * 3), static_cast<uint32_t>(n), 3.0f);
            auto w = random_normal(static_cast<size_t>(n), 2);
            std::vector<float> yr(x.size()), yf(x.size()), lr(x.size()), lf(x.size());
            rms_norm(kRef, x.data(), w.data(), yr.data(), n, 3, n, n, 1e-6f);
            rms_norm(kFast2, x.data(), w.data(), yf.data(), n, 3, n, n, 1e-6f);
            l2_norm(kRef, x.data(), lr.data(), n, 3, n, n, 1e-12f);
            l2_norm(kFast2, x.data(), lf.data(), n, 3, n, n, 1e-12f);
            for (int64_t r = 0; r < 3; ++r) {
                double ss = 0;
                for (int64_t i = 0; i < n; ++i)
                    ss += double(x[r * n + i]) * x[r * n + i];
                const double rms = std::sqrt(ss / n + 1e-6), l2 = std::sqrt(ss);
                for (int64_t i = 0; i < n; ++i) {
                    const size_t j = static_cast<size_t>(r * n + i);
                    const double e = x[j] / rms * w[i], el = x[j] / l2;
                    QVERIFY(std::fabs(yr[j] - e) <= 2e-6 * std::fabs(e) + 1e-7);
                    QVERIFY(std::fabs(yf[j] - yr[j]) <= 2e-6 * std::fabs(yr[j]) + 1e-7);
                    QVERIFY(std::fabs(lr[j] - el) <= 2e-6 * std::fabs(el) + 1e-9);
                    QVERIFY(std::fabs(lf[j] - lr[j]) <= 2e-6 * std::fabs(lr[j]) + 1e-9);
                }
            }
        }
    }

    // Softmax vs double. The fast exp is accurate to ~2 ulp; the sums are in double: 1e-6
    // relative per output (+1e-9 absolute for the tiny ones).
    void softmaxRows() {
        for (int64_t n : {1, 5, 8, 33, 1000}) {
            const int64_t rows = 4;
            auto x = random_normal(static_cast<size_t>(n * rows), static_cast<uint32_t>(n), 4.0f);
            std::vector<float> mask(static_cast<size_t>(n * rows));
            fill_causal_mask(mask.data(), rows, n, n - rows); // last rows see all keys
            auto xr = x, xf = x;
            const float scale = 0.125f;
            softmax(kRef, xr.data(), n, rows, n, scale, mask.data(), n);
            softmax(kFast2, xf.data(), n, rows, n, scale, mask.data(), n);
            for (int64_t r = 0; r < rows; ++r) {
                double mx = -1e300, sum = 0;
                for (int64_t i = 0; i < n; ++i)
                    if (std::isfinite(mask[r * n + i]))
                        mx = std::max(mx, double(x[r * n + i]) * scale);
                for (int64_t i = 0; i < n; ++i)
                    if (std::isfinite(mask[r * n + i]))
                        sum += std::exp(double(x[r * n + i]) * scale - mx);
                for (int64_t i = 0; i < n; ++i) {
                    const size_t j = static_cast<size_t>(r * n + i);
                    const double e =
                        std::isfinite(mask[j]) ? std::exp(double(x[j]) * scale - mx) / sum : 0.0;
                    QVERIFY2(std::fabs(xr[j] - e) <= 1e-6 * e + 1e-9,
                             qPrintable(QString("%1 vs %2").arg(xr[j]).arg(e)));
                    QVERIFY2(std::fabs(xf[j] - e) <= 1e-6 * e + 1e-9,
                             qPrintable(QString("%1 vs %2").arg(xf[j]).arg(e)));
                }
            }
        }
        // A fully masked row gives zeros, not NaN.
        std::vector<float> v(9, 1.0f), m(9, -std::numeric_limits<float>::infinity());
        softmax(kFast1, v.data(), 9, 1, 9, 1.0f, m.data(), 0);
        for (float f : v)
            QCOMPARE(f, 0.0f);
        float mk[6];
        fill_causal_mask(mk, 2, 3, 1);
        QCOMPARE(mk[0], 0.0f);
        QCOMPARE(mk[1], 0.0f);
        QVERIFY(std::isinf(mk[2]));
        QCOMPARE(mk[5], 0.0f);
    }

    // Activations vs double. Tolerances: reference uses libm (≤ 1 ulp) -> 1e-6 relative; the
    // fast exp/tanh/erf approximations are within ~3e-7 relative (erf: 1.2e-7 absolute from the
    // Chebyshev fit) -> 2e-6 relative plus 1e-6 absolute near the zeros of the functions.
    void activations() {
        const int64_t n = 4099;
        auto x = random_normal(n, 4, 4.0f);
        x[0] = 0;
        x[1] = -30;
        x[2] = 30;
        x[3] = -100;
        x[4] = 100;
        auto u = random_normal(n, 5);
        auto check = [&](const char* name, auto fn, auto exact) {
            std::vector<float> yr(n), yf(n);
            fn(kRef, yr.data());
            fn(kFast2, yf.data());
            for (int64_t i = 0; i < n; ++i) {
                const double e = exact(i);
                QVERIFY2(
                    std::fabs(yr[i] - e) <= 1e-6 * std::fabs(e) + 1e-7,
                    qPrintable(
                        QString("%1 ref x=%2 %3 vs %4").arg(name).arg(x[i]).arg(yr[i]).arg(e)));
                QVERIFY2(
                    std::fabs(yf[i] - e) <= 2e-6 * std::fabs(e) + 1e-6,
                    qPrintable(
                        QString("%1 fast x=%2 %3 vs %4").arg(name).arg(x[i]).arg(yf[i]).arg(e)));
            }
        };
        auto sig = [](double v) { return 1.0 / (1.0 + std::exp(-v)); };
        check(
            "silu", [&](const KernelContext& c, float* y) { silu(c, x.data(), y, n); },
            [&](int64_t i) { return x[i] * sig(x[i]); });
        check(
            "swiglu",
            [&](const KernelContext& c, float* y) { swiglu(c, x.data(), u.data(), y, n); },
            [&](int64_t i) { return x[i] * sig(x[i]) * u[i]; });
        check(
            "gelu_tanh", [&](const KernelContext& c, float* y) { gelu_tanh(c, x.data(), y, n); },
            [&](int64_t i) {
                const double v = x[i];
                return 0.5 * v *
                       (1 +
                        std::tanh(std::sqrt(2 / std::numbers::pi) * (v + 0.044715 * v * v * v)));
            });
        check(
            "gelu_erf", [&](const KernelContext& c, float* y) { gelu_erf(c, x.data(), y, n); },
            [&](int64_t i) { return 0.5 * x[i] * (1 + std::erf(x[i] / std::sqrt(2.0))); });
    }

    void yarnRamp() {
        // The YaRN ramp (arXiv:2309.00071; llama.cpp ggml_rope_yarn_corr_dims): Kimi-K2
        // (base 5e4, d 64, L0 4096) with llama.cpp's β_f = 32, β_s = 1 -> low 8, high 20;
        // DeepSeek-V3 (base 1e4) -> 10, 23.
        RopeParams p;
        p.n_dims = 64;
        p.freq_base = 50000.0f;
        p.n_ctx_orig = 4096;
        float dims[2];
        rope_yarn_corr_dims(p, dims);
        QCOMPARE(dims[0], 8.0f);
        QCOMPARE(dims[1], 20.0f);
        p.freq_base = 10000.0f;
        rope_yarn_corr_dims(p, dims);
        QCOMPARE(dims[0], 10.0f);
        QCOMPARE(dims[1], 23.0f);
        QCOMPARE(rope_yarn_ramp(8, 20, 0), 1.0f);
        QCOMPARE(rope_yarn_ramp(8, 20, 8), 1.0f);
        QCOMPARE(rope_yarn_ramp(8, 20, 14), 0.5f);
        QCOMPARE(rope_yarn_ramp(8, 20, 17), 0.25f);
        QCOMPARE(rope_yarn_ramp(8, 20, 20), 0.0f);
        QCOMPARE(rope_yarn_ramp(8, 20, 31), 0.0f);
        QCOMPARE(rope_yarn_ramp(19, 19, 19), 1.0f);
        QCOMPARE(rope_yarn_ramp(19, 19, 20), 0.0f); // max(0.001, high - low)
    }

    void yarnFrequenciesMatchSpecTable() {
        // Kimi-K2's YaRN inverse frequencies (s = 32) with llama.cpp's β_f = 32: at position 1 the
        // angle of pair i is inv_freq[i]. attn_factor cancels the 1 + 0.1·ln s magnitude.
        RopeParams p;
        p.n_dims = 64;
        p.freq_base = 50000.0f;
        p.freq_scale = 1.0f / 32;
        p.ext_factor = 1.0f;
        p.n_ctx_orig = 4096;
        p.attn_factor = 1.0f / (1.0f + 0.1f * std::log(32.0f));
        std::vector<float> cs(64);
        rope_cos_sin(p, 1.0f, cs.data());
        const std::pair<int, double> expect[] = {{0, 1.0},
                                                 {1, 7.131110849e-01},
                                                 {8, 6.687403050e-02},
                                                 {10, 2.851651970e-02},
                                                 {15, 2.727363708e-03},
                                                 {19, 1.816033230e-04},
                                                 {20, 3.614046774e-05},
                                                 {31, 8.764412912e-07}};
        for (auto [i, f] : expect) {
            const double theta = std::atan2(cs[2 * i + 1], cs[2 * i]);
            QVERIFY2(std::fabs(theta - f) <= 2e-6 * f,
                     qPrintable(QString("i=%1 %2 vs %3").arg(i).arg(theta, 0, 'g', 10).arg(f)));
            QVERIFY(std::fabs(std::hypot(cs[2 * i], cs[2 * i + 1]) - 1.0) < 1e-6);
        }
    }

    // NORM vs NEOX vs a double formula. θ_i is built by repeated fp32 multiplication (as
    // llama.cpp): relative error ≤ ~(i + 2)·2^-24, i.e. an angle error ≤ p·θ·(i+2)·6e-8; with
    // |x| ≤ ~4 and p ≤ 300 we allow 4·p·(i+2)·1.2e-7 + 1e-5.
    void ropeLayouts() {
        const int64_t head_dim = 80, n_dims = 64, n_heads = 3, n_tokens = 5;
        const int32_t pos[n_tokens] = {0, 1, 7, 100, 300};
        auto x = random_normal(static_cast<size_t>(head_dim * n_heads * n_tokens), 12);
        for (RopeLayout layout : {RopeLayout::Norm, RopeLayout::Neox}) {
            RopeParams p;
            p.n_dims = n_dims;
            p.layout = layout;
            p.freq_base = 10000.0f;
            for (const KernelContext* ctx : {&kRef, &kFast2}) {
                auto y = x;
                QVERIFY(rope(*ctx, p, y.data(), head_dim, n_heads, n_tokens, head_dim,
                             head_dim * n_heads, pos));
                for (int64_t t = 0; t < n_tokens; ++t) {
                    for (int64_t h = 0; h < n_heads; ++h) {
                        const float* in = x.data() + (t * n_heads + h) * head_dim;
                        const float* out = y.data() + (t * n_heads + h) * head_dim;
                        for (int64_t i = 0; i < n_dims / 2; ++i) {
                            const double th = pos[t] * std::pow(10000.0, -2.0 * i / n_dims);
                            const int64_t a = layout == RopeLayout::Norm ? 2 * i : i;
                            const int64_t b =
                                layout == RopeLayout::Norm ? 2 * i + 1 : i + n_dims / 2;
                            const double e0 = in[a] * std::cos(th) - in[b] * std::sin(th);
                            const double e1 = in[a] * std::sin(th) + in[b] * std::cos(th);
                            const double tol = 4 * pos[t] * (i + 2) * 1.2e-7 + 1e-5;
                            QVERIFY(std::fabs(out[a] - e0) <= tol);
                            QVERIFY(std::fabs(out[b] - e1) <= tol);
                        }
                        for (int64_t i = n_dims; i < head_dim; ++i) // pass-through tail
                            QCOMPARE(out[i], in[i]);
                    }
                }
            }
        }
        // NEOX on the de-interleaved vector equals NORM on the interleaved one (ggml rope modes).
        std::vector<float> inter(n_dims), split(n_dims);
        auto v = random_normal(n_dims, 3);
        for (int64_t i = 0; i < n_dims / 2; ++i) {
            inter[2 * i] = v[2 * i];
            inter[2 * i + 1] = v[2 * i + 1];
            split[i] = v[2 * i];
            split[i + n_dims / 2] = v[2 * i + 1];
        }
        RopeParams p;
        p.n_dims = n_dims;
        const int32_t p7 = 7;
        QVERIFY(rope(kFast1, p, inter.data(), n_dims, 1, 1, n_dims, n_dims, &p7));
        p.layout = RopeLayout::Neox;
        QVERIFY(rope(kFast1, p, split.data(), n_dims, 1, 1, n_dims, n_dims, &p7));
        for (int64_t i = 0; i < n_dims / 2; ++i) {
            QVERIFY(std::fabs(inter[2 * i] - split[i]) <= 1e-6f);
            QVERIFY(std::fabs(inter[2 * i + 1] - split[i + n_dims / 2]) <= 1e-6f);
        }
        p.n_dims = 63;
        QVERIFY(!rope(kRef, p, inter.data(), n_dims, 1, 1, n_dims, n_dims, &p7));
    }
};

QTEST_APPLESS_MAIN(TestKernelsOps)
#include "test_kernels_ops.moc"
