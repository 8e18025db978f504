// kimi-linear and deepseek32 against llama.cpp's outputs (conformance goldens): F32 models at
// every position in batch and token-by-token mode, greedy generations, quantized kimi-linear as a
// sanity check, and DSA reducing exactly to dense MLA when the context fits in top_k.
#include <QtTest>

#include "model/attention/top_k_select.h"
#include "model/decoder/decoder_model.h"
#include "model/mixers/dsa_indexer.h"
#include "model/mixers/mla_weights.h"
#include "support/goldens.h"
#include "support/test_support.h"

using namespace folio;

namespace {

constexpr const char* kF32Models[] = {"kimi-linear-f32", "ds32-f32"};
constexpr const char* kQuantModels[] = {"kimi-linear-q8_0", "kimi-linear-mxfp4moe"};
// llama-quantize's Q8_0 files of quant/ (its README): every 2-D tensor quantized, including the
// deepseek32 indexer's head weights (blk.N.indexer.proj.weight), which llama.cpp loads (issue 21).
constexpr const char* kLlamaQuantizeQ8Models[] = {"qa-ds32-q8_0", "qa-kl-q8_0", "qa-ds2-q8_0"};

// The same weights with the indexer switched off: plain (dense) MLA.
std::unique_ptr<DecoderModel> without_indexer(const QString& path) {
    auto m = test::loadDecoder(path);
    if (!m)
        return nullptr;
    m->config.indexer_top_k = 0;
    for (auto& L : m->weights.layers)
        mixer_weights_of<MlaWeights>(L).indexer = {};
    return m;
}

} // namespace

class TestHybridModels : public QObject {
    Q_OBJECT
private slots:
    void f32ModelsMatchLlamaCpp_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<bool>("seq");
        for (const char* m : kF32Models) {
            QTest::newRow((std::string(m) + " batch").c_str()) << QString::fromLatin1(m) << false;
            QTest::newRow((std::string(m) + " seq").c_str()) << QString::fromLatin1(m) << true;
        }
    }
    void f32ModelsMatchLlamaCpp() {
        QFETCH(QString, model);
        QFETCH(bool, seq);
        FOLIO_REQUIRE_CONFORMANCE(dir);
        test::Golden g = test::loadGolden(dir, model);
        QVERIFY(g.n_vocab > 0);
        auto m = test::loadDecoder(g.modelPath);
        QVERIFY(m);
        QCOMPARE(int(m->config.n_vocab), g.n_vocab);
        for (const auto& s : g.sequences) {
            const auto c =
                test::compareLogits(test::evaluateAll(*m, s.tokens, seq), s.logits, g.n_vocab);
            qInfo("%s %s %s: max |diff| %.3g, argmax %d/%d", qPrintable(model), qPrintable(s.name),
                  seq ? "seq" : "batch", c.maxAbsDiff, c.argmaxAgree, c.rows);
            QVERIFY2(c.maxAbsDiff <= 1e-4, qPrintable(s.name));
            QCOMPARE(c.argmaxAgree, c.rows);
        }
    }

    void quantizedModelsAreClose_data() {
        QTest::addColumn<QString>("model");
        for (const char* m : kQuantModels)
            QTest::newRow(m) << QString::fromLatin1(m);
    }
    void quantizedModelsAreClose() {
        // llama.cpp flips roundings between its own modes here (its batch and token-by-token
        // runs of ds2-qlora-q8_0 differ by up to 0.12): sanity bounds.
        QFETCH(QString, model);
        FOLIO_REQUIRE_CONFORMANCE(dir);
        test::Golden g = test::loadGolden(dir, model);
        auto m = test::loadDecoder(g.modelPath);
        QVERIFY(m);
        for (const auto& s : g.sequences) {
            const auto c =
                test::compareLogits(test::evaluateAll(*m, s.tokens, false), s.logits, g.n_vocab);
            qInfo("%s %s: mean row max %.3g, max %.3g, argmax %d/%d", qPrintable(model),
                  qPrintable(s.name), c.meanRowMax, c.maxAbsDiff, c.argmaxAgree, c.rows);
            QVERIFY(c.meanRowMax <= 0.5);
            QVERIFY(c.argmaxAgree >= 0.7 * c.rows);
        }
    }

    void llamaQuantizeQ8FilesMatchGoldens_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<bool>("seq");
        for (const char* m : kLlamaQuantizeQ8Models) {
            QTest::newRow((std::string(m) + " batch").c_str()) << QString::fromLatin1(m) << false;
            QTest::newRow((std::string(m) + " seq").c_str()) << QString::fromLatin1(m) << true;
        }
    }
    void llamaQuantizeQ8FilesMatchGoldens() {
        // quant/README "How to compare": per sequence the mean over positions of max |diff|
        // <= 0.5 and argmax agreement >= 70 %.
        QFETCH(QString, model);
        QFETCH(bool, seq);
        FOLIO_REQUIRE_CONFORMANCE(dir);
        test::Golden g = test::loadGolden(dir + QStringLiteral("/quant"), model);
        QVERIFY(g.n_vocab > 0);
        auto m = test::loadDecoder(g.modelPath);
        QVERIFY(m);
        if (model.startsWith(QStringLiteral("qa-ds32")))
            QCOMPARE(mixer_weights_of<MlaWeights>(m->weights.layers[0]).indexer.proj.type,
                     DType::Q8_0);
        QCOMPARE(g.sequences.size(), 2);
        for (const auto& s : g.sequences) {
            const auto c =
                test::compareLogits(test::evaluateAll(*m, s.tokens, seq), s.logits, g.n_vocab);
            qInfo("%s %s %s: mean row max %.3g, max %.3g, argmax %d/%d", qPrintable(model),
                  qPrintable(s.name), seq ? "seq" : "batch", c.meanRowMax, c.maxAbsDiff,
                  c.argmaxAgree, c.rows);
            QVERIFY(c.rows == static_cast<int>(s.tokens.size()));
            QVERIFY(c.meanRowMax <= 0.5);
            QVERIFY(c.argmaxAgree >= 0.7 * c.rows);
        }
    }

    void greedyGenerationsEqualGoldens() {
        FOLIO_REQUIRE_CONFORMANCE(dir);
        for (const char* name : kF32Models) {
            test::Golden g = test::loadGolden(dir, QString::fromLatin1(name));
            auto m = test::loadDecoder(g.modelPath);
            QVERIFY(m);
            QVERIFY(!g.greedy.isEmpty());
            for (const auto& gr : g.greedy)
                QVERIFY2(test::greedyContinuation(*m, gr.prompt, gr.generated.size()) ==
                             gr.generated,
                         name);
        }
    }

    void dsaWithinTopKEqualsDenseMla() {
        // While a query sees at most top_k keys, DSA is dense MLA, bit for bit; beyond, it
        // differs (ds32-f32 with top_k above the sequence length differs from position 32 on).
        FOLIO_REQUIRE_CONFORMANCE(dir);
        test::Golden g = test::loadGolden(dir, QStringLiteral("ds32-f32"));
        auto sparse = test::loadDecoder(g.modelPath);
        auto dense = without_indexer(g.modelPath);
        QVERIFY(sparse && dense);
        QCOMPARE(sparse->config.indexer_top_k, 32u);
        const auto& seq0 = g.sequences[0].tokens; // 12 tokens <= 32
        for (bool seq : {false, true})
            QVERIFY(test::evaluateAll(*sparse, seq0, seq) == test::evaluateAll(*dense, seq0, seq));
        // top_k >= context: the 320-token sequence is dense everywhere.
        const auto& seq2 = g.sequences[2].tokens;
        sparse->config.indexer_top_k = 320;
        QVERIFY(test::evaluateAll(*sparse, seq2, false) == test::evaluateAll(*dense, seq2, false));
        // top_k = 32: the first 32 positions agree with dense MLA, later ones do not.
        sparse->config.indexer_top_k = 32;
        const auto a = test::evaluateAll(*sparse, seq2, false),
                   b = test::evaluateAll(*dense, seq2, false);
        const int V = g.n_vocab;
        const std::vector<float> a32(a.begin(), a.begin() + 32 * V),
            b32(b.begin(), b.begin() + 32 * V);
        QVERIFY(test::compareLogits(a32, b32, V).maxAbsDiff < 1e-5);
        QVERIFY(test::compareLogits(a, b, V).maxAbsDiff > 0.1);
    }

    void topKSelectionIsDeterministic() {
        const float scores[] = {0.5f, 2.0f, -1.0f, 2.0f, 0.5f, 3.0f, 0.5f};
        std::vector<std::pair<float, int32_t>> work;
        TopKScratch fast;
        int32_t out[7], out_fast[7];
        select_top_k_reference(scores, 7, 3, work, out); // 3.0@5, 2.0@1, 2.0@3 -> ascending
        QCOMPARE((std::vector<int32_t>(out, out + 3)), (std::vector<int32_t>{1, 3, 5}));
        select_top_k(scores, 7, 3, fast, out_fast);
        QCOMPARE((std::vector<int32_t>(out_fast, out_fast + 3)), (std::vector<int32_t>{1, 3, 5}));
        select_top_k_reference(scores, 7, 4, work, out); // + the lowest-position 0.5 (ties)
        QCOMPARE((std::vector<int32_t>(out, out + 4)), (std::vector<int32_t>{0, 1, 3, 5}));
        select_top_k(scores, 7, 4, fast, out_fast);
        QCOMPARE((std::vector<int32_t>(out_fast, out_fast + 4)),
                 (std::vector<int32_t>{0, 1, 3, 5}));
        select_top_k_reference(scores, 7, 9, work, out); // k >= n: everything
        QCOMPARE((std::vector<int32_t>(out, out + 7)), (std::vector<int32_t>{0, 1, 2, 3, 4, 5, 6}));
        select_top_k(scores, 7, 9, fast, out_fast);
        QCOMPARE((std::vector<int32_t>(out_fast, out_fast + 7)),
                 (std::vector<int32_t>{0, 1, 2, 3, 4, 5, 6}));
    }

    void kimiLinearStateRewindsOnlyToCheckpoints() {
        FOLIO_REQUIRE_CONFORMANCE(dir);
        test::Golden g = test::loadGolden(dir, QStringLiteral("kimi-linear-f32"));
        auto m = test::loadDecoder(g.modelPath);
        QVERIFY(m);
        const auto& tokens = g.sequences[1].tokens; // 64 tokens
        DecoderState state = make_decoder_state(m->config, 64);
        DecoderScratch s;
        EvalOptions opt;
        opt.kernels.n_threads = 2;
        std::vector<float> first, again;
        QVERIFY(decoder_eval(*m, state, s, tokens.data(), 40, opt, first).has_value());
        state.checkpoint();
        QVERIFY(decoder_eval(*m, state, s, tokens.data() + 40, 10, opt, first).has_value());
        QVERIFY(!state.truncate(45));        // no KDA state at 45
        QCOMPARE(state.size(), int64_t(50)); // unchanged
        QVERIFY(state.truncate(40).has_value());
        QVERIFY(decoder_eval(*m, state, s, tokens.data() + 40, 10, opt, again).has_value());
        QVERIFY(first == again);
        QVERIFY(state.truncate(0).has_value());
        QCOMPARE(state.size(), int64_t(0));
        QVERIFY(decoder_eval(*m, state, s, tokens.data(), 40, opt, again).has_value());
    }
};

QTEST_APPLESS_MAIN(TestHybridModels)
#include "test_hybrid_models.moc"
