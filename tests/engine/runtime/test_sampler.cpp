// Sampling: greedy ties, determinism per seed, and that each filter really removes what it
// should (counted over many draws).
#include <QtTest>

#include "runtime/candidate_order.h"
#include "runtime/sampler.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <random>
#include <set>

using namespace folio;

namespace {

// The order by comparisons: logit descending, ties by id (NaN last, by id).
std::vector<int32_t> compared_order(const std::vector<float>& v) {
    std::vector<int32_t> ids(v.size());
    std::iota(ids.begin(), ids.end(), 0);
    std::stable_sort(ids.begin(), ids.end(), [&](int32_t a, int32_t b) {
        const bool na = std::isnan(v[a]), nb = std::isnan(v[b]);
        if (na || nb)
            return !na && nb;
        return v[a] > v[b];
    });
    return ids;
}

// The sampler as it was before the radix order: a partial sort of all ids by comparisons, then
// the same softmax, min-p, top-p and draw (no penalties). The independent check of the order's
// effect on the tokens drawn.
int32_t compared_sample(const SamplingParams& params, std::mt19937_64& rng,
                        const std::vector<float>& logits) {
    const auto V = static_cast<int64_t>(logits.size());
    std::vector<int32_t> ids(static_cast<size_t>(V));
    std::iota(ids.begin(), ids.end(), 0);
    const int64_t k = params.top_k > 0 ? std::min<int64_t>(params.top_k, V) : V;
    std::partial_sort(ids.begin(), ids.begin() + k, ids.end(), [&](int32_t a, int32_t b) {
        return logits[a] > logits[b] || (logits[a] == logits[b] && a < b);
    });
    ids.resize(static_cast<size_t>(k));
    std::vector<double> p(ids.size());
    const double mx = logits[ids[0]];
    double sum = 0;
    for (size_t i = 0; i < ids.size(); ++i)
        sum += p[i] = std::exp((logits[ids[i]] - mx) / params.temperature);
    for (auto& v : p)
        v /= sum;
    size_t keep = p.size();
    if (params.min_p > 0.0f) {
        const double floor_p = params.min_p * p[0];
        keep = 1;
        while (keep < p.size() && p[keep] >= floor_p)
            ++keep;
    }
    if (params.top_p < 1.0f) {
        double mass = 0;
        size_t n = 0;
        while (n < keep) {
            mass += p[n++];
            if (mass >= params.top_p)
                break;
        }
        keep = std::max<size_t>(1, n);
    }
    double total = 0;
    for (size_t i = 0; i < keep; ++i)
        total += p[i];
    std::uniform_real_distribution<double> uni(0.0, total);
    double r = uni(rng);
    for (size_t i = 0; i < keep; ++i) {
        r -= p[i];
        if (r <= 0)
            return ids[i];
    }
    return ids[keep - 1];
}

} // namespace

class TestSampler : public QObject {
    Q_OBJECT
private slots:
    void greedyPicksLowestIdOnTies() {
        Sampler s({});
        const std::vector<float> logits = {0.5f, 2.0f, 2.0f, -1.0f};
        QCOMPARE(s.sample(logits, {}), 1);
    }
    void argmaxIsTheFirstLargest() {
        // Against a plain scan, on lengths around the 16-lane blocks, the maximum anywhere.
        for (size_t n : {1, 15, 16, 17, 33, 32000, 32007}) {
            std::vector<float> v(n);
            for (size_t i = 0; i < n; ++i)
                v[i] = std::sin(float(i) * 1.3f) * 10.0f;
            for (size_t at : {size_t{0}, n / 2, n - 1}) {
                std::vector<float> w = v;
                w[at] = 100.0f;
                QCOMPARE(argmax(w), int32_t(at));
                w[n - 1] = 100.0f; // a tie: the lower id
                QCOMPARE(argmax(w), int32_t(at));
            }
        }
        // NaNs never win; -inf is a value like any other.
        const float nan = std::nanf("");
        const float inf = std::numeric_limits<float>::infinity();
        QCOMPARE(argmax(std::vector<float>{1.0f, nan, 3.0f, 2.0f}), 2);
        QCOMPARE(argmax(std::vector<float>(40, -inf)), 0);
        std::vector<float> late(40, -inf);
        late[37] = -5.0f;
        late[20] = nan;
        QCOMPARE(argmax(late), 37);
    }
    void sameSeedSameTokens() {
        SamplingParams p;
        p.temperature = 1.0f;
        p.seed = 1234;
        std::vector<float> logits(50);
        for (int i = 0; i < 50; ++i)
            logits[i] = std::sin(i * 0.7f);
        Sampler a(p), b(p);
        std::vector<int32_t> ta, tb;
        for (int i = 0; i < 100; ++i) {
            ta.push_back(a.sample(logits, ta));
            tb.push_back(b.sample(logits, tb));
        }
        QCOMPARE(ta, tb);
        p.seed = 99;
        Sampler c(p);
        std::vector<int32_t> tc;
        for (int i = 0; i < 100; ++i)
            tc.push_back(c.sample(logits, tc));
        QVERIFY(tc != ta);
    }
    void topKLimitsCandidates() {
        SamplingParams p;
        p.temperature = 5.0f;
        p.top_k = 2;
        Sampler s(p);
        const std::vector<float> logits = {1.0f, 3.0f, 2.9f, 0.0f, 2.8f};
        for (int i = 0; i < 500; ++i) {
            const int32_t t = s.sample(logits, {});
            QVERIFY(t == 1 || t == 2);
        }
    }
    void topPAndMinPDropTheTail() {
        // probabilities at T=1: softmax(log([0.5, 0.3, 0.15, 0.05]))
        const std::vector<float> logits = {std::log(0.5f), std::log(0.3f), std::log(0.15f),
                                           std::log(0.05f)};
        SamplingParams p;
        p.temperature = 1.0f;
        p.top_p = 0.75f; // 0.5 < 0.75 <= 0.5 + 0.3: tokens 0 and 1 only
        Sampler s(p);
        std::map<int32_t, int> counts;
        for (int i = 0; i < 2000; ++i)
            ++counts[s.sample(logits, {})];
        QCOMPARE(int(counts.size()), 2);
        QVERIFY(counts[0] > counts[1]);
        SamplingParams q;
        q.temperature = 1.0f;
        q.min_p = 0.25f; // keeps p >= 0.125: tokens 0, 1, 2
        Sampler m(q);
        std::map<int32_t, int> mc;
        for (int i = 0; i < 3000; ++i)
            ++mc[m.sample(logits, {})];
        QCOMPARE(int(mc.size()), 3);
        // Token 0 is drawn with probability 0.5/0.95 ≈ 0.526 (± 4σ over 3000 draws).
        QVERIFY(std::abs(mc[0] / 3000.0 - 0.5 / 0.95) < 0.04);
    }
    void candidateOrderIsTheComparisonOrder() {
        // Odd lengths; many ties (logits rounded to a coarse grid), both zeros, infinities, NaN,
        // and spreads that leave the high digits of every key equal (a skipped radix pass).
        std::mt19937 gen(7);
        CandidateScratch scratch;
        std::vector<int32_t> ids;
        for (size_t n : {size_t{1}, size_t{2}, size_t{3}, size_t{257}, size_t{2049}, size_t{32000},
                         size_t{163840}}) {
            for (int variant = 0; variant < 4; ++variant) {
                std::vector<float> v(n);
                std::normal_distribution<float> normal(0.0f, variant == 3 ? 1e-3f : 4.0f);
                for (float& x : v) {
                    x = normal(gen);
                    if (variant == 1)
                        x = std::round(x * 4.0f) / 4.0f; // ties
                }
                if (variant == 2 && n >= 8) {
                    v[0] = -0.0f;
                    v[n / 2] = 0.0f;
                    v[1] = std::numeric_limits<float>::infinity();
                    v[n - 1] = -std::numeric_limits<float>::infinity();
                    v[n - 2] = std::nanf("");
                    v[2] = std::numeric_limits<float>::lowest();
                    v[3] = std::numeric_limits<float>::denorm_min();
                    v[4] = -std::numeric_limits<float>::denorm_min();
                }
                order_candidates(v, ids, scratch);
                QVERIFY2(ids == compared_order(v),
                         qPrintable(QStringLiteral("n %1 variant %2").arg(n).arg(variant)));
            }
        }
        order_candidates(std::vector<float>{}, ids, scratch);
        QVERIFY(ids.empty());
    }
    void drawsTheComparisonSortsTokens() {
        // The same seed draws the same tokens as the sampler that sorted by comparisons, for
        // each truncation: none, top-k below and above the partial-sort limit, top-p, min-p.
        std::mt19937 gen(11);
        std::normal_distribution<float> normal(0.0f, 3.0f);
        std::vector<float> logits(32000);
        for (float& x : logits)
            x = std::round(normal(gen) * 64.0f) / 64.0f; // some ties
        struct Case {
            float temperature;
            int top_k;
            float top_p, min_p;
        };
        for (const Case& c : {Case{0.8f, 0, 1.0f, 0.0f}, Case{1.0f, 40, 1.0f, 0.0f},
                              Case{1.0f, 1000, 1.0f, 0.0f}, Case{0.7f, 0, 0.9f, 0.0f},
                              Case{1.3f, 0, 1.0f, 0.05f}, Case{1.0f, 500, 0.95f, 0.01f}}) {
            SamplingParams p;
            p.temperature = c.temperature;
            p.top_k = c.top_k;
            p.top_p = c.top_p;
            p.min_p = c.min_p;
            p.seed = 42;
            Sampler s(p);
            std::mt19937_64 rng(p.seed);
            std::set<int32_t> distinct;
            for (int i = 0; i < 200; ++i) {
                const int32_t t = s.sample(logits, {});
                QCOMPARE(t, compared_sample(p, rng, logits));
                distinct.insert(t);
            }
            QVERIFY(distinct.size() > 5); // the draws really spread over the candidates
        }
    }
    void penaltiesDemoteRepeatedTokens() {
        SamplingParams p;
        p.repetition_penalty = 2.0f;
        Sampler s(p);
        const std::vector<float> logits = {2.0f, 1.5f, -1.0f};
        QCOMPARE(s.sample(logits, std::vector<int32_t>{0}), 1); // 2.0/2 = 1.0 < 1.5
        SamplingParams q;
        q.presence_penalty = 1.0f;
        Sampler t(q);
        QCOMPARE(t.sample(logits, std::vector<int32_t>{0, 0, 0}), 1); // once: 2.0 - 1 = 1.0
        QCOMPARE(t.sample(logits, std::vector<int32_t>{2}), 0);
    }
};

QTEST_APPLESS_MAIN(TestSampler)
#include "test_sampler.moc"
