// token_ffn (engine/model/decoder/token_ffn.h), one token's MLPs in one parallel region, against
// the batch path it replaces in decode (dense_ffn on one thread, summed in order: bit for bit) and
// against the plain math in float64 on the dequantized weights.
#include <QtTest>

#include "kernels/thread_balance.h"
#include "model/decoder/moe_ffn.h"
#include "model/decoder/token_ffn.h"
#include "support/quant_rows.h"
#include "support/random_data.h"

#include <cmath>
#include <cstring>

using namespace folio;

namespace {

// A weight of N rows × K columns of type t, random, with its dequantized values.
struct Weight {
    std::vector<uint8_t> bytes;
    std::vector<float> values; // N·K, what the weight holds after quantization
    TensorView view;
};

Weight random_weight(DType t, int64_t K, int64_t N, uint32_t seed) {
    const std::vector<float> x = test::random_normal(static_cast<size_t>(K * N), seed, 0.05f);
    Weight w;
    for (int64_t r = 0; r < N; ++r) {
        const std::vector<float> row(x.begin() + r * K, x.begin() + (r + 1) * K);
        const std::vector<uint8_t> q = test::quant(t, row);
        const std::vector<float> back = test::dequant(t, q.data(), K);
        w.bytes.insert(w.bytes.end(), q.begin(), q.end());
        w.values.insert(w.values.end(), back.begin(), back.end());
    }
    w.view = make_tensor_view(t, {K, N, 1, 1}, w.bytes.data());
    return w;
}

struct Mlp {
    Weight gate, up, down;
    float weight;
};

struct Case {
    int64_t E;
    std::vector<std::array<DType, 3>> types; // gate, up, down per MLP
    std::vector<int64_t> F;
};

Case the_case(const QString& name) {
    if (name == QLatin1String("k-quants, two widths, two input formats"))
        return {512,
                {{DType::Q4_K, DType::Q4_K, DType::Q6_K},
                 {DType::Q4_K, DType::Q4_K, DType::Q4_K},
                 {DType::Q8_0, DType::Q4_K, DType::Q4_K}},
                {256, 256, 512}};
    // 224 rows: thread shares of 64 / 80 / 80 (three threads) and 112 / 112 (two).
    return {512,
            {{DType::Q8_0, DType::Q8_0, DType::Q8_0},
             {DType::Q8_0, DType::Q8_0, DType::Q8_0},
             {DType::F32, DType::F32, DType::F32}},
            {224, 224, 96}};
}

std::vector<Mlp> make_mlps(const Case& c) {
    std::vector<Mlp> m;
    for (size_t i = 0; i < c.types.size(); ++i) {
        const auto s = static_cast<uint32_t>(10 * i);
        m.push_back({random_weight(c.types[i][0], c.E, c.F[i], s + 1),
                     random_weight(c.types[i][1], c.E, c.F[i], s + 2),
                     random_weight(c.types[i][2], c.F[i], c.E, s + 3), 0.5f + 0.75f * float(i)});
    }
    return m;
}

std::vector<TokenMlp> views(const std::vector<Mlp>& m) {
    std::vector<TokenMlp> v;
    for (const Mlp& x : m)
        v.push_back({x.gate.view, x.up.view, x.down.view, x.weight});
    return v;
}

} // namespace

class TestTokenFfn : public QObject {
    Q_OBJECT
private slots:
    // With a ThreadBalance whose speeds are skewed (thread t at 1 + 2t), the
    // threads take unequal shares: the same bits.
    void equalsTheBatchPath_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("threads");
        QTest::addColumn<bool>("skewed");
        for (const QString& name : {QStringLiteral("k-quants, two widths, two input formats"),
                                    QStringLiteral("Q8_0 and F32, rows not a multiple of 16")})
            for (int threads : {1, 2, 3})
                for (bool skewed : {false, true})
                    QTest::newRow(qPrintable(QStringLiteral("%1, %2 threads%3")
                                                 .arg(name)
                                                 .arg(threads)
                                                 .arg(skewed ? ", skewed shares" : "")))
                        << name << threads << skewed;
    }
    void equalsTheBatchPath() {
        QFETCH(QString, name);
        QFETCH(int, threads);
        QFETCH(bool, skewed);
        ThreadBalance balance;
        for (int round = 0; skewed && round < 40; ++round) {
            for (int t = 0; t < threads; ++t)
                balance.record(t, 1.0 / threads, 1.0 / threads / (1.0 + 2.0 * t));
            balance.update(threads);
        }
        if (skewed && threads > 1)
            QVERIFY(balance.speed(threads - 1) > 2.5 * balance.speed(0));
        const KernelContext ctx{threads, KernelPath::Auto, skewed ? &balance : nullptr};
        const Case c = the_case(name);
        const std::vector<Mlp> mlps = make_mlps(c);
        const std::vector<float> xn = test::random_normal(static_cast<size_t>(c.E), 99);

        // The batch path on one thread: each MLP by dense_ffn, out += weight · y in order.
        std::vector<float> expected(static_cast<size_t>(c.E), 0.0f), y(static_cast<size_t>(c.E));
        FfnScratch fs;
        const KernelContext one{1, KernelPath::Auto};
        for (const Mlp& m : mlps) {
            QVERIFY(
                dense_ffn(one, m.gate.view, m.up.view, m.down.view, xn.data(), 1, c.E, fs, y.data())
                    .has_value());
            for (int64_t j = 0; j < c.E; ++j)
                expected[j] += m.weight * y[j];
        }

        std::vector<float> out(static_cast<size_t>(c.E), -1.0f);
        TokenFfnScratch s;
        const std::vector<TokenMlp> v = views(mlps);
        QVERIFY(token_ffn(ctx, v, xn.data(), c.E, s, out.data()).has_value());
        for (int64_t j = 0; j < c.E; ++j)
            if (std::memcmp(&out[j], &expected[j], sizeof(float)) != 0)
                QFAIL(qPrintable(QStringLiteral("output %1: %2, the batch path %3")
                                     .arg(j)
                                     .arg(double(out[j]), 0, 'g', 9)
                                     .arg(double(expected[j]), 0, 'g', 9)));
        // The same scratch again (buffers kept from the first call): the same numbers.
        std::vector<float> again(static_cast<size_t>(c.E));
        QVERIFY(token_ffn(ctx, v, xn.data(), c.E, s, again.data()).has_value());
        QVERIFY(std::memcmp(again.data(), out.data(), out.size() * sizeof(float)) == 0);

        // The math in float64 on the dequantized weights (no activation rounding): close.
        double max_diff = 0, max_ref = 0;
        std::vector<double> ref(static_cast<size_t>(c.E), 0.0);
        for (size_t i = 0; i < mlps.size(); ++i) {
            const Mlp& m = mlps[i];
            const int64_t F = c.F[i];
            std::vector<double> h(static_cast<size_t>(F));
            for (int64_t f = 0; f < F; ++f) {
                double g = 0, u = 0;
                for (int64_t e = 0; e < c.E; ++e) {
                    g += double(m.gate.values[f * c.E + e]) * xn[e];
                    u += double(m.up.values[f * c.E + e]) * xn[e];
                }
                h[f] = g / (1 + std::exp(-g)) * u;
            }
            for (int64_t e = 0; e < c.E; ++e) {
                double d = 0;
                for (int64_t f = 0; f < F; ++f)
                    d += double(m.down.values[e * F + f]) * h[f];
                ref[e] += m.weight * d;
            }
        }
        for (int64_t e = 0; e < c.E; ++e) {
            max_diff = std::max(max_diff, std::abs(ref[e] - out[e]));
            max_ref = std::max(max_ref, std::abs(ref[e]));
        }
        QVERIFY(max_ref > 1e-3);
        QVERIFY2(max_diff < 0.02 * max_ref,
                 qPrintable(QStringLiteral("max diff %1 of max %2").arg(max_diff).arg(max_ref)));
    }

    void mismatchedShapesAreAnError() {
        Case c = the_case(QStringLiteral("k-quants, two widths, two input formats"));
        std::vector<Mlp> mlps = make_mlps(c);
        std::vector<TokenMlp> v = views(mlps);
        std::swap(v[1].down, v[2].down); // F = 256 takes a down projection for F = 512
        const std::vector<float> xn = test::random_normal(static_cast<size_t>(c.E), 5);
        std::vector<float> out(static_cast<size_t>(c.E));
        TokenFfnScratch s;
        const Status st = token_ffn({2, KernelPath::Auto}, v, xn.data(), c.E, s, out.data());
        QVERIFY(!st);
        QVERIFY(st.error().message.find("MLP 1") != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestTokenFfn)
#include "test_token_ffn.moc"
