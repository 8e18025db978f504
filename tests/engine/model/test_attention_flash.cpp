// Flash-style prefill attention (model/attention/attention_flash.h) against the full-score-matrix
// attention it replaces (attend_mqa_causal; attend_causal for the naive form's
// attend_causal_flash) and a float64 softmax written out here, on odd
// shapes: queries and keys not multiples of the key tile, several heads per query, depth before
// the batch, tiles the first queries cannot see; and its softmax step (kernels/flash_tile.h),
// AVX2 against the plain one.
#include <QtTest>

#include "kernels/flash_tile.h"
#include "kernels/kernel_table.h"
#include "model/attention/attention_core.h"
#include "model/attention/attention_flash.h"

#include <cmath>
#include <limits>
#include <random>
#include <vector>

using namespace folio;

namespace {

// A cache of n rows of `row` floats in blocks of bt rows (each block its own allocation, as the
// paged cache's).
struct TestCache {
    std::vector<std::vector<float>> blocks;
    KvView view;
    TestCache(int64_t n, int64_t row, int64_t bt, std::mt19937& rng, float spread) {
        std::normal_distribution<float> nd(0.0f, spread);
        view.n_rows = n;
        view.row_floats = row;
        view.block_tokens = bt;
        view.type = KvType::F32;
        view.row_bytes = static_cast<size_t>(row) * sizeof(float);
        for (int64_t b = 0; b * bt < n; ++b) {
            blocks.emplace_back(static_cast<size_t>(bt * row));
            for (float& v : blocks.back())
                v = nd(rng);
            view.raw.push_back(reinterpret_cast<const uint8_t*>(blocks.back().data()));
        }
    }
    const float* row(int64_t t) const {
        return blocks[static_cast<size_t>(t / view.block_tokens)].data() +
               (t % view.block_tokens) * view.row_floats;
    }
};

struct Shape {
    int64_t nq, heads, pos0, dqk, dv, bt;
};

// The float64 softmax, the definition both kernels are checked against: out[r][·] for R query
// rows, rows_per_query rows sharing each query position, keys key(j) and values value(j).
template <class Key, class Value>
std::vector<double> exact(const std::vector<float>& q, int64_t R, int64_t rows_per_query,
                          int64_t pos0, int64_t dqk, int64_t dv, float scale, Key key,
                          Value value) {
    std::vector<double> out(static_cast<size_t>(R * dv), 0.0);
    for (int64_t r = 0; r < R; ++r) {
        const int64_t n = pos0 + r / rows_per_query + 1;
        std::vector<double> p(static_cast<size_t>(n));
        double mx = -std::numeric_limits<double>::infinity();
        for (int64_t j = 0; j < n; ++j) {
            double d = 0;
            for (int64_t i = 0; i < dqk; ++i)
                d += double(q[r * dqk + i]) * key(j)[i];
            p[j] = d * scale;
            mx = std::max(mx, p[j]);
        }
        double sum = 0;
        for (auto& v : p)
            sum += v = std::exp(v - mx);
        for (int64_t j = 0; j < n; ++j)
            for (int64_t i = 0; i < dv; ++i)
                out[r * dv + i] += p[j] / sum * value(j)[i];
    }
    return out;
}

// Each of `rows` output rows: flash within 1e-4 of the full-matrix form and of the float64
// softmax on its dv columns, and the rest of the row (up to out_stride) untouched (-7).
void expect_rows_near(const std::vector<float>& flash, const std::vector<float>& full,
                      const std::vector<double>& want, int64_t rows, int64_t dv, int64_t out_stride,
                      const QString& label, int& compared) {
    for (int64_t r = 0; r < rows; ++r) {
        for (int64_t i = 0; i < dv; ++i) {
            const size_t at = static_cast<size_t>(r * out_stride + i);
            const double e = want[static_cast<size_t>(r * dv + i)];
            const QString msg = QString("%1 row %2 col %3: flash %4 full %5 exact %6")
                                    .arg(label)
                                    .arg(r)
                                    .arg(i)
                                    .arg(flash[at], 0, 'g', 9)
                                    .arg(full[at], 0, 'g', 9)
                                    .arg(e, 0, 'g', 9);
            QVERIFY2(std::fabs(flash[at] - full[at]) <= 1e-4f, qPrintable(msg));
            QVERIFY2(std::fabs(flash[at] - e) <= 1e-4, qPrintable(msg));
            ++compared;
        }
        for (int64_t i = dv; i < out_stride; ++i)
            QCOMPARE(flash[static_cast<size_t>(r * out_stride + i)], -7.0f);
    }
}

} // namespace

class TestAttentionFlash : public QObject {
    Q_OBJECT
private slots:
    void flashEqualsFullMatrixAttentionOnOddShapes() {
        const Shape shapes[] = {
            {37, 1, 264, 40, 24, 64}, // 37 queries × 301 keys, one head, causal
            {37, 3, 264, 40, 24, 64}, // the same with 3 heads sharing the keys
            {5, 4, 0, 24, 16, 64},    // no depth: the batch's own keys only
            {17, 2, 130, 72, 64, 16}, // small tiles: most tiles unseen by the first queries
            {1, 16, 300, 36, 32, 64}, // one query, many heads
        };
        std::mt19937 rng(2026);
        int compared = 0;
        for (const Shape& s : shapes)
            for (KernelPath path : {KernelPath::Reference, KernelPath::Auto}) {
                const int64_t R = s.nq * s.heads, n_keys = s.pos0 + s.nq;
                TestCache cache(n_keys, s.dqk, s.bt, rng, 1.0f);
                std::normal_distribution<float> nd(0.0f, 1.0f);
                std::vector<float> q(static_cast<size_t>(R * s.dqk));
                for (float& v : q)
                    v = nd(rng);
                const float scale = 1.5f / std::sqrt(float(s.dqk)); // peaked enough to matter
                MqaBlock b;
                b.q = q.data();
                b.q_stride = s.dqk;
                b.n_rows = R;
                b.rows_per_query = s.heads;
                b.dqk = s.dqk;
                b.kv = &cache.view;
                b.dv = s.dv;
                b.pos0 = s.pos0;
                b.scale = scale;
                b.out_stride = s.dv + 3; // wider than dv: only dv of each row written
                std::vector<float> full(static_cast<size_t>(R * b.out_stride), -7.0f);
                std::vector<float> flash = full;
                std::vector<float> scores, block;
                b.out = full.data();
                attend_mqa_causal(b, scores, block);
                FlashScratch w;
                b.out = flash.data();
                attend_mqa_flash(b, w, path);
                const auto row = [&](int64_t j) { return cache.row(j); };
                const std::vector<double> want =
                    exact(q, R, s.heads, s.pos0, s.dqk, s.dv, scale, row, row);
                expect_rows_near(flash, full, want, R, s.dv, b.out_stride,
                                 QString("nq=%1 heads=%2 pos0=%3 bt=%4 path=%5")
                                     .arg(s.nq)
                                     .arg(s.heads)
                                     .arg(s.pos0)
                                     .arg(s.bt)
                                     .arg(int(path)),
                                 compared);
                if (QTest::currentTestFailed())
                    return;
            }
        QVERIFY(compared > 37 * 3 * 24);
    }

    // MLA's naive form, one head with its own keys and values (attend_causal_flash) against the
    // full-score-matrix attend_causal and a float64 softmax: key counts below, at and past the
    // 256-key tile (and tiles the first queries cannot see), strides wider than the rows.
    void causalFlashEqualsFullMatrixAttention() {
        struct NaiveShape {
            int64_t nq, pos0, dqk, dv;
        };
        const NaiveShape shapes[] = {
            {1, 0, 40, 24},    // one query, one key
            {37, 264, 40, 24}, // 301 keys: a full tile and a partial one
            {64, 448, 96, 64}, // the bench shape: 512 keys, the last tile seen by some queries only
            {5, 251, 20, 12},  // queries straddling the tile edge at 256
            {70, 0, 33, 17},   // no depth, odd widths
        };
        std::mt19937 rng(77);
        std::normal_distribution<float> nd(0.0f, 1.0f);
        int compared = 0;
        for (const NaiveShape& s : shapes)
            for (KernelPath path : {KernelPath::Reference, KernelPath::Auto}) {
                const int64_t n_keys = s.pos0 + s.nq, ks = s.dqk + 5, vs = s.dv + 3;
                std::vector<float> q(static_cast<size_t>(s.nq * s.dqk)),
                    k(static_cast<size_t>(n_keys * ks)), v(static_cast<size_t>(n_keys * vs));
                for (auto* x : {&q, &k, &v})
                    for (float& e : *x)
                        e = nd(rng);
                const float scale = 1.5f / std::sqrt(float(s.dqk));
                AttentionBlock b;
                b.q = q.data();
                b.q_stride = s.dqk;
                b.nq = s.nq;
                b.dqk = s.dqk;
                b.k = k.data();
                b.k_stride = ks;
                b.v = v.data();
                b.v_stride = vs;
                b.dv = s.dv;
                b.pos0 = s.pos0;
                b.scale = scale;
                b.out_stride = s.dv + 2;
                std::vector<float> full(static_cast<size_t>(s.nq * b.out_stride), -7.0f);
                std::vector<float> flash = full;
                std::vector<float> scores;
                b.out = full.data();
                attend_causal(b, scores);
                FlashScratch w;
                b.out = flash.data();
                attend_causal_flash(b, w, path);
                const std::vector<double> want = exact(
                    q, s.nq, 1, s.pos0, s.dqk, s.dv, scale,
                    [&](int64_t j) { return k.data() + j * ks; },
                    [&](int64_t j) { return v.data() + j * vs; });
                expect_rows_near(
                    flash, full, want, s.nq, s.dv, b.out_stride,
                    QString("nq=%1 pos0=%2 path=%3").arg(s.nq).arg(s.pos0).arg(int(path)),
                    compared);
                if (QTest::currentTestFailed())
                    return;
            }
        QCOMPARE(compared, 2 * (1 * 24 + 37 * 24 + 64 * 64 + 5 * 12 + 70 * 17));
    }

    // The AVX2 step against the plain one: visible counts 0, below 8, not multiples of 8, the
    // whole tile; a state that already saw larger and smaller maxima.
    void avx2TileStepNearReference() {
        if (!avx2_kernels_available())
            QSKIP("this CPU has no AVX2: the plain step is the only one");
        const int64_t rows = 23, nk = 45, ld = 47;
        std::mt19937 rng(7);
        std::normal_distribution<float> nd(0.0f, 3.0f);
        std::vector<float> s(static_cast<size_t>(rows * ld));
        for (float& v : s)
            v = nd(rng);
        std::vector<float> m(rows), l(rows);
        for (int64_t r = 0; r < rows; ++r) {
            m[r] = r % 5 == 0 ? -std::numeric_limits<float>::infinity() : nd(rng);
            l[r] = r % 5 == 0 ? 0.0f : 1.0f + float(r);
        }
        for (int64_t vis0 : {int64_t{-3}, int64_t{1}, int64_t{20}, nk}) {
            std::vector<float> s1 = s, s2 = s, m1 = m, m2 = m, l1 = l, l2 = l;
            std::vector<float> f1(rows, -1.0f), f2(rows, -1.0f);
            FlashTile t{s1.data(), rows, nk, ld, vis0, 2, 0.7f, m1.data(), l1.data(), f1.data()};
            ref::flash_tile(t);
            t.s = s2.data(), t.m = m2.data(), t.l = l2.data(), t.rescale = f2.data();
            flash_tile_kernel(KernelPath::Auto)(t);
            for (int64_t r = 0; r < rows; ++r) {
                const int64_t vis = std::clamp<int64_t>(vis0 + r / 2, 0, nk);
                QCOMPARE(m2[r], m1[r]);
                QVERIFY(std::fabs(f2[r] - f1[r]) <= 1e-6f * std::max(1.0f, f1[r]));
                QVERIFY(std::fabs(l2[r] - l1[r]) <= 1e-5f * std::max(1.0f, l1[r]));
                for (int64_t j = 0; j < nk; ++j) {
                    const float a = s1[r * ld + j], c = s2[r * ld + j];
                    if (j >= vis)
                        QCOMPARE(c, 0.0f);
                    QVERIFY2(std::fabs(a - c) <= 2e-6f * std::max(1.0f, a),
                             qPrintable(QString("vis0 %1 row %2 key %3: %4 vs %5")
                                            .arg(vis0)
                                            .arg(r)
                                            .arg(j)
                                            .arg(c)
                                            .arg(a)));
                }
                // Padding columns between nk and ld are not touched.
                for (int64_t j = nk; j < ld; ++j)
                    QCOMPARE(s2[r * ld + j], s[r * ld + j]);
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestAttentionFlash)
#include "test_attention_flash.moc"
