// The kimi-linear / deepseek32 / kimi-hybrid generators: llama.cpp's layout (checked against
// the conformance files, which llama.cpp's own tools wrote), models that load and run, and
// kimi-hybrid ≡ kimi-linear (same seed) while the indexer's top_k covers the context.
#include <QtTest>

#include "gguf/gguf_file.h"
#include "model/decoder/decoder_model.h"
#include "models/make_model.h"
#include "support/test_support.h"
#include "tensor/dtype.h"

#include <cmath>
#include <cstring>

using namespace folio;

namespace {

std::string makeModel(const QString& dir, const std::string& arch, const std::string& type,
                      uint64_t seed) {
    tools::MakeModelOptions o;
    o.arch = arch;
    o.preset = "tiny";
    o.type = type;
    o.seed = seed;
    o.out = (dir + QLatin1Char('/')).toStdString() + arch + "-" + type + "-" +
            std::to_string(seed) + ".gguf";
    Status s = tools::make_model(o);
    if (!s)
        qWarning("%s", s.error().to_string().c_str());
    return s ? o.out : std::string();
}

std::unique_ptr<gguf::File> openOrFail(const std::string& path) {
    auto f = gguf::File::open(path);
    if (!f) {
        qWarning("%s", f.error().to_string().c_str());
        return nullptr;
    }
    return std::move(f).value();
}

std::unique_ptr<DecoderModel> loadOrFail(const std::string& path) {
    auto m = load_decoder(path);
    if (!m) {
        qWarning("%s", m.error().to_string().c_str());
        return nullptr;
    }
    return std::move(m).value();
}

std::vector<int32_t> someTokens(int n, int vocab) {
    std::vector<int32_t> t;
    for (int i = 0; i < n; ++i)
        t.push_back((i * 37 + 11) % vocab);
    return t;
}

std::vector<float> evaluate(const DecoderModel& m, const std::vector<int32_t>& tokens, bool seq) {
    DecoderState state = make_decoder_state(m.config, static_cast<int64_t>(tokens.size()));
    DecoderScratch s;
    EvalOptions opt;
    opt.kernels.n_threads = 2;
    std::vector<float> all, step;
    if (!seq) {
        opt.all_logits = true;
        return decoder_eval(m, state, s, tokens.data(), int64_t(tokens.size()), opt, all)
                   ? all
                   : std::vector<float>{};
    }
    for (int32_t t : tokens) {
        if (!decoder_eval(m, state, s, &t, 1, opt, step))
            return {};
        all.insert(all.end(), step.begin(), step.end());
    }
    return all;
}

double maxDiff(const std::vector<float>& a, const std::vector<float>& b) {
    if (a.size() != b.size() || a.empty())
        return INFINITY;
    double mx = 0;
    for (size_t i = 0; i < a.size(); ++i)
        mx = std::max(mx, double(std::abs(a[i] - b[i])));
    return mx;
}

} // namespace

class TestHybridGenerators : public QObject {
    Q_OBJECT
private slots:
    void tinyF32MatchesLlamaCppLayout_data() {
        QTest::addColumn<QString>("arch");
        QTest::addColumn<QString>("ref");
        QTest::newRow("kimi-linear")
            << QStringLiteral("kimi-linear") << QStringLiteral("kimi-linear-f32");
        QTest::newRow("deepseek32") << QStringLiteral("deepseek32") << QStringLiteral("ds32-f32");
    }
    void tinyF32MatchesLlamaCppLayout() {
        // Same shape as the conformance model: every tensor with the same ne, type
        // and dimension count, except the vocabulary dimension (320 there); every key with the
        // same value type.
        QFETCH(QString, arch);
        QFETCH(QString, ref);
        FOLIO_REQUIRE_CONFORMANCE(conf);
        const QString dir = test::scratchDir(QStringLiteral("hybrid-layout"));
        auto ours = openOrFail(makeModel(dir, arch.toStdString(), "f32", 1));
        auto theirs = openOrFail(
            (conf + QStringLiteral("/models/") + ref + QStringLiteral(".gguf")).toStdString());
        QVERIFY(ours && theirs);
        QVERIFY(ours->file_size() < 3'000'000);
        QCOMPARE(ours->tensors().size(), theirs->tensors().size());
        const int64_t ourVocab =
            static_cast<int64_t>(ours->get_string_array("tokenizer.ggml.tokens")->value().size());
        for (const auto& rt : theirs->tensors()) {
            const gguf::TensorInfo* t = ours->find_tensor(rt.name);
            QVERIFY2(t, rt.name.c_str());
            QCOMPARE(t->type, rt.type);
            // gguf-py keeps trailing 1-dims ([W, 1, P, 1] conv, [1, H, 1, 1] ssm_a); llama.cpp
            // loads the trimmed form as well.
            const bool trimmable = rt.name.find("ssm_conv1d") != std::string::npos ||
                                   rt.name.find("ssm_a") != std::string::npos;
            QVERIFY2(t->n_dims == rt.n_dims || trimmable, rt.name.c_str());
            for (int d = 0; d < 4; ++d) {
                const int64_t expect = rt.ne[d] == 320 ? ourVocab : rt.ne[d];
                QVERIFY2(t->ne[d] == expect, (rt.name + " dim " + std::to_string(d)).c_str());
            }
        }
        for (const auto& kv : theirs->metadata()) {
            const gguf::KeyValue* mine = ours->find_key(kv.key);
            QVERIFY2(mine, kv.key.c_str());
            QVERIFY2(mine->value.type == kv.value.type, kv.key.c_str());
            if (kv.value.type == gguf::ValueType::Array &&
                kv.key.find("head_count_kv") != std::string::npos)
                QVERIFY2(mine->value.array->ints == kv.value.array->ints, kv.key.c_str());
        }
        // ssm_a holds −exp(A_log) < 0 (as llama.cpp's converter writes it).
        if (arch == QStringLiteral("kimi-linear")) {
            const gguf::TensorInfo* a = ours->find_tensor("blk.0.ssm_a");
            const float* v = reinterpret_cast<const float*>(a->data);
            for (int64_t i = 0; i < a->n_elements(); ++i)
                QVERIFY(v[i] < 0.0f);
        }
    }

    void quantizedTypesFollowLlamaQuantize() {
        FOLIO_REQUIRE_CONFORMANCE(conf);
        const QString dir = test::scratchDir(QStringLiteral("hybrid-types"));
        const std::pair<std::string, QString> cases[] = {
            {"q8_0", QStringLiteral("/models/kimi-linear-q8_0.gguf")},
            {"mxfp4-moe", QStringLiteral("/models/kimi-linear-mxfp4moe.gguf")}};
        for (const auto& [type, refName] : cases) {
            auto ours = openOrFail(makeModel(dir, "kimi-linear", type, 3));
            auto ref = openOrFail((conf + refName).toStdString());
            QVERIFY(ours && ref);
            for (const auto& rt : ref->tensors()) {
                const gguf::TensorInfo* t = ours->find_tensor(rt.name);
                QVERIFY2(t, rt.name.c_str());
                QVERIFY2(t->type == rt.type,
                         (type + ": " + rt.name + " is " + std::string(dtype_name(t->type)) +
                          ", llama.cpp has " + std::string(dtype_name(rt.type)))
                             .c_str());
            }
        }
    }

    void generatedModelsRun_data() {
        QTest::addColumn<QString>("arch");
        for (const char* a : {"kimi-linear", "deepseek32", "kimi-hybrid"})
            QTest::newRow(a) << QString::fromLatin1(a);
    }
    void generatedModelsRun() {
        // Load, evaluate 100 tokens (past the tiny top_k of 32) as a batch and one at a time.
        QFETCH(QString, arch);
        const QString dir = test::scratchDir(QStringLiteral("hybrid-run"));
        auto m = loadOrFail(makeModel(dir, arch.toStdString(), "f32", 5));
        QVERIFY(m);
        QCOMPARE(QString::fromStdString(m->config.arch), arch);
        const auto tokens = someTokens(100, int(m->config.n_vocab));
        const auto batch = evaluate(*m, tokens, false), seq = evaluate(*m, tokens, true);
        const double d = maxDiff(batch, seq);
        qInfo("%s: batch vs seq max |diff| %.3g", qPrintable(arch), d);
        QVERIFY2(d < 1e-4, qPrintable(QString::number(d)));
    }

    void hybridEqualsKimiLinearWithinTopK() {
        const QString dir = test::scratchDir(QStringLiteral("hybrid-equiv"));
        const std::string linPath = makeModel(dir, "kimi-linear", "f32", 9);
        const std::string hybPath = makeModel(dir, "kimi-hybrid", "f32", 9);
        auto linFile = openOrFail(linPath);
        auto hybFile = openOrFail(hybPath);
        QVERIFY(linFile && hybFile);
        // Same seed: every kimi-linear tensor is in the hybrid file with the same bytes.
        for (const auto& t : linFile->tensors()) {
            const gguf::TensorInfo* h = hybFile->find_tensor(t.name);
            QVERIFY2(h && h->size_bytes == t.size_bytes, t.name.c_str());
            QVERIFY2(std::memcmp(h->data, t.data, t.size_bytes) == 0, t.name.c_str());
        }
        QVERIFY(hybFile->find_tensor("blk.3.indexer.attn_q_b.weight") != nullptr);

        auto lin = loadOrFail(linPath);
        auto hyb = loadOrFail(hybPath);
        QVERIFY(lin && hyb);
        const uint32_t top_k = hyb->config.indexer_top_k;
        QCOMPARE(top_k, 32u);
        const auto shortSeq = someTokens(int(top_k), int(lin->config.n_vocab));
        for (bool seq : {false, true})
            QVERIFY(evaluate(*hyb, shortSeq, seq) == evaluate(*lin, shortSeq, seq));
        const auto longSeq = someTokens(150, int(lin->config.n_vocab));
        QVERIFY(maxDiff(evaluate(*hyb, longSeq, false), evaluate(*lin, longSeq, false)) >
                1e-3);                   // sparse
        hyb->config.indexer_top_k = 150; // top_k >= context: dense again
        QVERIFY(evaluate(*hyb, longSeq, false) == evaluate(*lin, longSeq, false));
    }
};

QTEST_APPLESS_MAIN(TestHybridGenerators)
#include "test_hybrid_generators.moc"
