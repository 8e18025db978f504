// Sampling: greedy ties, determinism per seed, and that each filter really removes what it
// should (counted over many draws).
#include <QtTest>

#include "runtime/sampler.h"

#include <cmath>
#include <limits>
#include <map>

using namespace folio;

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
