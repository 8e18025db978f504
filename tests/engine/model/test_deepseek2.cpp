// The deepseek2 decoder against llama.cpp's outputs (conformance goldens): every F32 model at
// every position in batch and token-by-token mode, quantized models as a sanity check, greedy
// generations, MLA form agreement, and bad input.
#include <QtTest>

#include "gguf/gguf_writer.h"
#include "model/decoder/decoder_model.h"
#include "model/decoder/moe_ffn.h"
#include "model/mixers/mla_attention.h"
#include "support/goldens.h"
#include "support/test_support.h"

#include <cmath>
#include <cstring>

using namespace folio;

namespace {

constexpr const char* kF32Models[] = {"ds2-qlora-f32", "ds2-lite-f32", "ds2-yarn-groups-f32",
                                      "ds2-vl-text-f32"};
constexpr const char* kQuantModels[] = {"ds2-qlora-q8_0", "ds2-qlora-mxfp4moe"};

} // namespace

class TestDeepseek2 : public QObject {
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
            const auto ours = test::evaluateAll(*m, s.tokens, seq);
            const auto c = test::compareLogits(ours, s.logits, g.n_vocab);
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
        // On the short sequence our Q8_0 activation path reproduces llama.cpp almost exactly.
        const auto c0 = test::compareLogits(test::evaluateAll(*m, g.sequences[0].tokens, false),
                                            g.sequences[0].logits, g.n_vocab);
        QVERIFY2(c0.maxAbsDiff < 1e-3, qPrintable(QString::number(c0.maxAbsDiff)));
    }

    void greedyGenerationsEqualGoldens() {
        FOLIO_REQUIRE_CONFORMANCE(dir);
        for (const char* name : kF32Models) {
            test::Golden g = test::loadGolden(dir, QString::fromLatin1(name));
            auto m = test::loadDecoder(g.modelPath);
            QVERIFY(m);
            for (const auto& gr : g.greedy)
                QVERIFY2(test::greedyContinuation(*m, gr.prompt, gr.generated.size()) ==
                             gr.generated,
                         name);
        }
    }

    void naiveAndAbsorbedFormsAgree() {
        FOLIO_REQUIRE_CONFORMANCE(dir);
        test::Golden g = test::loadGolden(dir, QStringLiteral("ds2-yarn-groups-f32"));
        auto m = test::loadDecoder(g.modelPath);
        QVERIFY(m);
        const auto& tokens = g.sequences[2].tokens;
        const auto naive = test::evaluateAll(*m, tokens, false, MlaForm::Naive);
        const auto absorbed = test::evaluateAll(*m, tokens, false, MlaForm::Absorbed);
        const auto c = test::compareLogits(naive, absorbed, g.n_vocab);
        QVERIFY2(c.maxAbsDiff < 1e-5, qPrintable(QString::number(c.maxAbsDiff)));
    }

    // MlaForm::Auto's choice on DeepSeek-V2's MLA shape (kv_lora 512, dn = dv = 128, dr = 64,
    // 16 heads), against multiply-add counts worked out by hand: naive = (pos0 + T)·kr·(dn + dv)
    // + keys·(dk + dv), absorbed = T·kr·(dn + dv) + keys·(2·kr + dr), per head, with
    // keys = T·pos0 + T(T+1)/2.
    void autoFormIsTheCheaperOne() {
        ModelConfig c;
        c.n_head = {16};
        c.kv_lora_rank = 512;
        c.qk_nope = 128;
        c.qk_rope = 64;
        c.v_head = 128;
        // Float W_UK / W_UV: naive from empty (1.75e9 vs 3.36e9 multiply-adds), never for one
        // query.
        QVERIFY(mla_auto_takes_naive(c, 0, 512, 0, true));
        QVERIFY(!mla_auto_takes_naive(c, 0, 1, 0, true));
        QVERIFY(!mla_auto_takes_naive(c, 0, 1, 100000, true));
        // At depth 32768 the keys' products (pos0·kr·256 = 4.295e9) against the 768 fewer
        // multiply-adds per key seen: 170 queries see 5,585,095 keys (4.289e9), 171 see 5,618,034
        // (4.315e9).
        QVERIFY(!mla_auto_takes_naive(c, 0, 170, 32768, true));
        QVERIFY(mla_auto_takes_naive(c, 0, 171, 32768, true));
        // A short question deep in a document: building 100K rows of keys costs more.
        QVERIFY(!mla_auto_takes_naive(c, 0, 16, 100000, true));
        // Quantized W_UK / W_UV: absorbed (llama.cpp's numbers) below kNaiveQuantizedFromDepth.
        QCOMPARE(kNaiveQuantizedFromDepth, int64_t(4096));
        QVERIFY(!mla_auto_takes_naive(c, 0, 512, 0, false));
        QVERIFY(!mla_auto_takes_naive(c, 0, 512, 4095, false));
        QVERIFY(mla_auto_takes_naive(c, 0, 512, 4096, false));
        QVERIFY(!mla_auto_takes_naive(c, 0, 170, 32768, false));
        QVERIFY(mla_auto_takes_naive(c, 0, 171, 32768, false));
    }

    void prefillThenDecodeEqualsOneShot() {
        FOLIO_REQUIRE_CONFORMANCE(dir);
        test::Golden g = test::loadGolden(dir, QStringLiteral("ds2-qlora-f32"));
        auto m = test::loadDecoder(g.modelPath);
        QVERIFY(m);
        const auto& tokens = g.sequences[1].tokens; // 64 tokens
        const auto oneShot = test::evaluateAll(*m, tokens, false);
        // 40-token prefill, then 24 single-token decode steps (different MLA forms, same cache).
        DecoderState state = make_decoder_state(m->config, 64);
        DecoderScratch s;
        EvalOptions opt;
        opt.kernels.n_threads = 2;
        opt.all_logits = true;
        std::vector<float> all, step;
        QVERIFY(decoder_eval(*m, state, s, tokens.data(), 40, opt, all).has_value());
        opt.all_logits = false;
        for (size_t i = 40; i < tokens.size(); ++i) {
            QVERIFY(decoder_eval(*m, state, s, tokens.data() + i, 1, opt, step).has_value());
            all.insert(all.end(), step.begin(), step.end());
        }
        QCOMPARE(state.size(), int64_t(64));
        const auto c = test::compareLogits(all, oneShot, g.n_vocab);
        QVERIFY2(c.maxAbsDiff < 1e-5, qPrintable(QString::number(c.maxAbsDiff)));
        // One thread gives the same numbers as two.
        const auto single = test::evaluateAll(*m, tokens, false, MlaForm::Auto, 1);
        QVERIFY(test::compareLogits(single, oneShot, g.n_vocab).maxAbsDiff < 1e-5);
    }

    void decodeOnMoreThreadsIsBitEqual_data() {
        QTest::addColumn<QString>("model");
        for (const char* m : {"qa-ds2-q4_k_m", "qa-ds2-q8_0", "qa-ds2-mxfp4_moe"})
            QTest::newRow(m) << QString::fromLatin1(m);
    }
    void decodeOnMoreThreadsIsBitEqual() {
        // Decode splits rows, heads (W_UK, attention, W_UV of a share of the heads per thread
        // over fewer than 128 keys) and MLPs over the threads; no row's or head's numbers may
        // depend on the split. Quantized weights (W_UK / W_UV in Q5_0, Q8_0, Q4_K), 40 steps.
        QFETCH(QString, model);
        FOLIO_REQUIRE_CONFORMANCE(dir);
        auto m = test::loadDecoder(dir + QStringLiteral("/quant/models/") + model +
                                   QStringLiteral(".gguf"));
        QVERIFY(m);
        std::vector<int32_t> tokens;
        for (int i = 0; i < 40; ++i)
            tokens.push_back(static_cast<int32_t>((i * 7919 + 11) % m->config.n_vocab));
        const auto one = test::evaluateAll(*m, tokens, true, MlaForm::Auto, 1);
        QCOMPARE(one.size(), tokens.size() * size_t(m->config.n_vocab));
        for (int threads : {2, 3}) {
            const auto more = test::evaluateAll(*m, tokens, true, MlaForm::Auto, threads);
            QCOMPARE(more.size(), one.size());
            QVERIFY2(std::memcmp(more.data(), one.data(), one.size() * sizeof(float)) == 0,
                     qPrintable(QStringLiteral("%1 threads differ").arg(threads)));
        }
    }

    void routerUsesBiasForSelectionOnly() {
        // Routing bias: it picks experts 1 and 3, weights come from σ(logit).
        ModelConfig c;
        c.n_expert = 4;
        c.n_expert_used = 2;
        c.gating = GatingFunc::Sigmoid;
        c.expert_weights_norm = true;
        c.expert_weights_scale = 2.5f;
        const float logits[4] = {4.0f, 1.0f, 2.0f, 3.0f};
        const float bias[4] = {-10.0f, 5.0f, 0.0f, 0.0f};
        ExpertChoice ch = route_token(c, logits, bias);
        QCOMPARE(ch.experts, (std::vector<int32_t>{1, 3}));
        const double s1 = 1 / (1 + std::exp(-1.0)), s3 = 1 / (1 + std::exp(-3.0));
        QVERIFY(std::abs(ch.weights[0] - s1 / (s1 + s3) * 2.5) < 1e-6);
        QVERIFY(std::abs(ch.weights[1] - s3 / (s1 + s3) * 2.5) < 1e-6);
        // Group-limited routing: 2 groups of 2, keep 1 group -> only experts of the best group.
        c.n_expert_group = 2;
        c.n_expert_group_used = 1;
        const float logits2[4] = {3.0f, 3.0f, 4.0f, -4.0f}; // group 0 sum > group 1 sum
        ch = route_token(c, logits2, nullptr);
        QCOMPARE(ch.experts, (std::vector<int32_t>{0, 1}));
    }

    void badInputIsAnError() {
        FOLIO_REQUIRE_CONFORMANCE(dir);
        auto m = test::loadDecoder(dir + QStringLiteral("/models/ds2-lite-f32.gguf"));
        QVERIFY(m);
        DecoderState state = make_decoder_state(m->config, 8);
        DecoderScratch s;
        EvalOptions opt;
        std::vector<float> logits;
        const int32_t bad[2] = {5, 320};
        Status st = decoder_eval(*m, state, s, bad, 2, opt, logits);
        QVERIFY(!st);
        QVERIFY(st.error().message.find("token id 320") != std::string::npos);
        QCOMPARE(state.size(), int64_t(0));
        // Context overflow is an error too, and the state stays usable.
        std::vector<int32_t> nine(9, 1);
        QVERIFY(!decoder_eval(*m, state, s, nine.data(), 9, opt, logits));
        QVERIFY(decoder_eval(*m, state, s, nine.data(), 8, opt, logits).has_value());

        // A file whose tensor contradicts the metadata is refused, naming the tensor.
        auto src =
            gguf::File::open((dir + QStringLiteral("/models/ds2-lite-f32.gguf")).toStdString());
        QVERIFY(src.has_value());
        gguf::Writer w;
        for (const auto& kv : (*src)->metadata())
            w.set_value(kv.key, kv.value);
        w.set_u32("deepseek2.attention.kv_lora_rank", 32);
        for (const auto& t : (*src)->tensors()) {
            std::vector<int64_t> ne(t.ne.begin(), t.ne.begin() + t.n_dims);
            QVERIFY(w.add_tensor_view(t.name, ne, t.type, {t.data, t.size_bytes}).has_value());
        }
        const std::string path =
            (test::scratchDir(QStringLiteral("ds2-bad")) + QStringLiteral("/bad.gguf"))
                .toStdString();
        QVERIFY(w.write(path).has_value());
        auto badModel = load_decoder(path);
        QVERIFY(!badModel);
        QVERIFY2(badModel.error().message.find("blk.0.attn_kv_a_mqa.weight") != std::string::npos,
                 badModel.error().message.c_str());
    }
};

QTEST_APPLESS_MAIN(TestDeepseek2)
#include "test_deepseek2.moc"
