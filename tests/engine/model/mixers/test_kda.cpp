// Kimi Delta Attention (the Kimi Linear paper): the chunked form equals the recurrence on
// outputs and final state, with a partial last chunk, a non-zero incoming state and strong
// decays; the short convolution carries its state across calls; a tiny construction
// (d_k = 4, d_v = 3, T = 11) that float64 NumPy reproduces in a few lines.
#include <QtTest>

#include "model/mixers/kda_attention.h"
#include "model/mixers/kda_delta_rule.h"

#include <cmath>
#include <random>

using namespace folio;

namespace {

struct Problem {
    int64_t T, dk, dv;
    std::vector<float> q, k, v, g, beta, state;
};

// Random L2-normed q (scaled by dk^-1/2) and k, v ~ N(0,1), g = -a·softplus(z) <= 0 with a
// up to `decay`, β in (0, 1), a non-zero initial state.
Problem make_problem(int64_t T, int64_t dk, int64_t dv, float decay, uint32_t seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> n01(0.0f, 1.0f);
    std::uniform_real_distribution<float> u01(0.0f, 1.0f);
    Problem p{T, dk, dv, {}, {}, {}, {}, {}, {}};
    auto normed = [&](std::vector<float>& x, float scale) {
        x.resize(static_cast<size_t>(T * dk));
        for (int64_t t = 0; t < T; ++t) {
            double ss = 0;
            for (int64_t d = 0; d < dk; ++d) {
                x[t * dk + d] = n01(rng);
                ss += double(x[t * dk + d]) * x[t * dk + d];
            }
            for (int64_t d = 0; d < dk; ++d)
                x[t * dk + d] = static_cast<float>(x[t * dk + d] / std::sqrt(ss) * scale);
        }
    };
    normed(p.q, 1.0f / std::sqrt(float(dk)));
    normed(p.k, 1.0f);
    for (int64_t i = 0; i < T * dv; ++i)
        p.v.push_back(n01(rng));
    for (int64_t i = 0; i < T * dk; ++i)
        p.g.push_back(-decay * u01(rng) * std::log1p(std::exp(n01(rng))));
    for (int64_t t = 0; t < T; ++t)
        p.beta.push_back(1.0f / (1.0f + std::exp(-n01(rng))));
    for (int64_t i = 0; i < dk * dv; ++i)
        p.state.push_back(0.5f * n01(rng));
    return p;
}

KdaSequence sequence(const Problem& p, std::vector<float>& out) {
    out.assign(static_cast<size_t>(p.T * p.dv), 0.0f);
    KdaSequence s;
    s.n_tokens = p.T;
    s.dk = p.dk;
    s.dv = p.dv;
    s.q = p.q.data();
    s.k = p.k.data();
    s.qk_stride = p.dk;
    s.v = p.v.data();
    s.v_stride = p.dv;
    s.g = p.g.data();
    s.g_stride = p.dk;
    s.beta = p.beta.data();
    s.beta_stride = 1;
    s.out = out.data();
    s.out_stride = p.dv;
    return s;
}

// max |a - b| / max(1, max |b|)
double rel_diff(const std::vector<float>& a, const std::vector<float>& b) {
    double mx = 0, scale = 1;
    for (size_t i = 0; i < a.size(); ++i) {
        mx = std::max(mx, double(std::abs(a[i] - b[i])));
        scale = std::max(scale, double(std::abs(b[i])));
        if (!std::isfinite(a[i]))
            return INFINITY;
    }
    return mx / scale;
}

} // namespace

class TestKda : public QObject {
    Q_OBJECT
private slots:
    void chunkedEqualsRecurrent_data() {
        QTest::addColumn<int>("T");
        QTest::addColumn<float>("decay");
        for (int T : {1, 63, 64, 65, 200})
            QTest::newRow(qPrintable(QStringLiteral("T=%1").arg(T))) << T << 1.0f;
        // Strong decays (g down to −16·softplus): exp(−G) would overflow over a chunk.
        QTest::newRow("T=200 strong decay") << 200 << 16.0f;
    }
    void chunkedEqualsRecurrent() {
        QFETCH(int, T);
        QFETCH(float, decay);
        const Problem p = make_problem(T, 32, 24, decay, 7u + T);
        std::vector<float> o_rec, o_chk;
        std::vector<float> s_rec = p.state, s_chk = p.state;
        kda_recurrent(sequence(p, o_rec), s_rec.data());
        KdaChunkScratch scratch;
        kda_chunked(sequence(p, o_chk), 64, s_chk.data(), scratch);
        const double d_out = rel_diff(o_chk, o_rec), d_state = rel_diff(s_chk, s_rec);
        qInfo("T=%d decay %.0f: outputs %.3g, state %.3g", T, decay, d_out, d_state);
        QVERIFY2(d_out <= 1e-5, qPrintable(QString::number(d_out)));
        QVERIFY2(d_state <= 1e-5, qPrintable(QString::number(d_state)));
    }

    void tinyConstructionOfSpec() {
        // d_k = 4, d_v = 3, T = 11, chunk 4 (partial last chunk), non-zero state.
        const Problem p = make_problem(11, 4, 3, 1.0f, 42u);
        std::vector<float> o_rec, o_chk;
        std::vector<float> s_rec = p.state, s_chk = p.state;
        kda_recurrent(sequence(p, o_rec), s_rec.data());
        KdaChunkScratch scratch;
        kda_chunked(sequence(p, o_chk), 4, s_chk.data(), scratch);
        QVERIFY(rel_diff(o_chk, o_rec) <= 1e-6);
        QVERIFY(rel_diff(s_chk, s_rec) <= 1e-6);
        // Splitting the sequence across calls (state carried) changes nothing.
        std::vector<float> s_split = p.state, o_a, o_b;
        Problem head = p, tail = p;
        head.T = 5;
        tail.T = 6;
        tail.q.erase(tail.q.begin(), tail.q.begin() + 5 * 4);
        tail.k.erase(tail.k.begin(), tail.k.begin() + 5 * 4);
        tail.g.erase(tail.g.begin(), tail.g.begin() + 5 * 4);
        tail.v.erase(tail.v.begin(), tail.v.begin() + 5 * 3);
        tail.beta.erase(tail.beta.begin(), tail.beta.begin() + 5);
        kda_chunked(sequence(head, o_a), 4, s_split.data(), scratch);
        kda_recurrent(sequence(tail, o_b), s_split.data());
        o_a.insert(o_a.end(), o_b.begin(), o_b.end());
        QVERIFY(rel_diff(o_a, o_rec) <= 1e-6);
        QVERIFY(rel_diff(s_split, s_rec) <= 1e-6);
    }

    void shortConvCarriesState() {
        // The short convolution: one call over 9 tokens equals 4 + 1 + 4 tokens with the state
        // carried over.
        const int64_t T = 9, P = 5, W = 4;
        std::mt19937 rng(3);
        std::normal_distribution<float> n01;
        std::vector<float> x(T * P), w(P * W), init((W - 1) * P);
        for (auto* v : {&x, &w, &init})
            for (float& f : *v)
                f = n01(rng);
        std::vector<float> ext, whole = x, state_whole = init;
        short_conv(whole.data(), T, P, w.data(), W, state_whole.data(), ext);
        std::vector<float> parts = x, state = init;
        short_conv(parts.data(), 4, P, w.data(), W, state.data(), ext);
        short_conv(parts.data() + 4 * P, 1, P, w.data(), W, state.data(), ext);
        short_conv(parts.data() + 5 * P, 4, P, w.data(), W, state.data(), ext);
        QVERIFY(parts == whole);
        QVERIFY(state == state_whole);
        // Direct formula for token 0, channel 2: taps 0..2 read the initial state.
        float y = w[2 * W + 3] * x[2];
        for (int64_t j = 0; j < W - 1; ++j)
            y += w[2 * W + j] * init[j * P + 2];
        QVERIFY(std::abs(whole[2] - y) < 1e-6f);
    }
};

QTEST_APPLESS_MAIN(TestKda)
#include "test_kda.moc"
