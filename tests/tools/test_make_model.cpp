// The random-weights model generator: llama.cpp's layout (checked against the conformance
// files, which llama.cpp's own tools wrote), deterministic output, sane weight statistics.
#include <QtTest>

#include "gguf/gguf_file.h"
#include "kernels/weight_rows.h"
#include "model/vision/vision_model.h"
#include "models/make_model.h"
#include "models/tiny_vocab.h"
#include "support/test_support.h"

#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <set>

using namespace folio;

namespace {

std::string makeModel(const QString& dir, const std::string& type, uint64_t seed,
                      const std::string& name) {
    tools::MakeModelOptions o;
    o.preset = "tiny";
    o.type = type;
    o.seed = seed;
    o.out = (dir + QLatin1Char('/')).toStdString() + name;
    Status s = tools::make_model(o);
    if (!s)
        qWarning("%s", s.error().to_string().c_str());
    return s ? o.out : std::string();
}

std::string readAll(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

std::unique_ptr<gguf::File> openOrFail(const std::string& path) {
    auto f = gguf::File::open(path);
    if (!f) {
        qWarning("%s", f.error().to_string().c_str());
        return nullptr;
    }
    return std::move(f).value();
}

} // namespace

class TestMakeModel : public QObject {
    Q_OBJECT
private slots:
    void sameSeedSameBytesOtherSeedOtherBytes() {
        const QString dir = test::scratchDir(QStringLiteral("make-model-seed"));
        const std::string a = makeModel(dir, "q8_0", 7, "a.gguf");
        const std::string b = makeModel(dir, "q8_0", 7, "b.gguf");
        const std::string c = makeModel(dir, "q8_0", 8, "c.gguf");
        QVERIFY(!a.empty() && !b.empty() && !c.empty());
        QVERIFY(readAll(a) == readAll(b));
        QVERIFY(readAll(a) != readAll(c));
        QVERIFY(readAll(a).size() == readAll(c).size());
    }

    // --confident changes values only: same tensors, types, shapes and metadata as the plain
    // model of the same seed; output.weight is token_embd.weight / sqrt(n_embd) and the block
    // output projections are 3/4 of their plain values (same random numbers).
    void confidentKeepsTheLayout() {
        const QString dir = test::scratchDir(QStringLiteral("make-model-confident"));
        for (const std::string type : {"f32", "q8_0"}) {
            tools::MakeModelOptions o;
            o.seed = 9;
            o.type = type;
            o.out = (dir + "/plain-").toStdString() + type + ".gguf";
            QVERIFY(tools::make_model(o).has_value());
            o.confident = true;
            o.out = (dir + "/confident-").toStdString() + type + ".gguf";
            QVERIFY(tools::make_model(o).has_value());
            auto plain = openOrFail((dir + "/plain-").toStdString() + type + ".gguf");
            auto conf = openOrFail(o.out);
            QVERIFY(plain && conf);
            QCOMPARE(conf->file_size(), plain->file_size());
            QCOMPARE(conf->tensors().size(), plain->tensors().size());
            QCOMPARE(conf->metadata().size(), plain->metadata().size());
            for (size_t i = 0; i < plain->tensors().size(); ++i) {
                const auto& p = plain->tensors()[i];
                const auto& c = conf->tensors()[i];
                QCOMPARE(c.name, p.name);
                QVERIFY2(c.type == p.type, c.name.c_str());
                QCOMPARE(c.ne, p.ne);
                QCOMPARE(c.offset, p.offset);
            }
            if (type != "f32")
                continue;
            const auto* emb = conf->find_tensor("token_embd.weight");
            const auto* out = conf->find_tensor("output.weight");
            const auto* down = conf->find_tensor("blk.0.ffn_down.weight");
            const auto* downPlain = plain->find_tensor("blk.0.ffn_down.weight");
            const auto* q = conf->find_tensor("blk.0.attn_q_a.weight");
            const auto* qPlain = plain->find_tensor("blk.0.attn_q_a.weight");
            QVERIFY(emb && out && down && downPlain && q && qPlain);
            const auto f = [](const gguf::TensorInfo* t) {
                return reinterpret_cast<const float*>(t->data);
            };
            const double a = 1.0 / std::sqrt(double(emb->ne[0]));
            double maxRel = 0;
            for (size_t i = 0; i < emb->size_bytes / 4; ++i)
                maxRel = std::max(maxRel, std::abs(f(out)[i] - a * f(emb)[i]) /
                                              (std::abs(a * f(emb)[i]) + 1e-6));
            QVERIFY2(maxRel < 1e-5, qPrintable(QString::number(maxRel)));
            for (size_t i = 0; i < down->size_bytes / 4; ++i)
                QVERIFY(std::abs(f(down)[i] - 0.75 * f(downPlain)[i]) <=
                        1e-6 * std::abs(f(downPlain)[i]) + 1e-9);
            QVERIFY(std::memcmp(q->data, qPlain->data, q->size_bytes) == 0);
            QVERIFY(std::memcmp(out->data, plain->find_tensor("output.weight")->data,
                                out->size_bytes) != 0);
        }
        tools::MakeModelOptions v;
        v.arch = "kimivl";
        v.confident = true;
        v.out = (dir + "/v.gguf").toStdString();
        QVERIFY(!tools::make_model(v));
    }

    void tinyF32MatchesLlamaCppLayout() {
        // ds2-qlora-f32.gguf was written by llama.cpp's gguf-py with the same shape as our tiny
        // preset: every tensor must exist in our file with the same ne, except the
        // vocabulary dimension (320 there).
        FOLIO_REQUIRE_CONFORMANCE(conf);
        const QString dir = test::scratchDir(QStringLiteral("make-model-layout"));
        const std::string path = makeModel(dir, "f32", 1, "tiny.gguf");
        auto ours = openOrFail(path);
        auto ref = openOrFail((conf + QStringLiteral("/models/ds2-qlora-f32.gguf")).toStdString());
        QVERIFY(ours && ref);
        QVERIFY(ours->file_size() < 3'000'000);
        QCOMPARE(ours->tensors().size(), ref->tensors().size());
        const int64_t ourVocab =
            static_cast<int64_t>(ours->get_string_array("tokenizer.ggml.tokens")->value().size());
        for (const auto& rt : ref->tensors()) {
            const gguf::TensorInfo* t = ours->find_tensor(rt.name);
            QVERIFY2(t, rt.name.c_str());
            QCOMPARE(t->type, rt.type);
            QCOMPARE(t->n_dims, rt.n_dims);
            for (int d = 0; d < 4; ++d) {
                const int64_t expect = rt.ne[d] == 320 ? ourVocab : rt.ne[d];
                QVERIFY2(t->ne[d] == expect, (rt.name + " dim " + std::to_string(d)).c_str());
            }
        }
        // Every metadata key llama.cpp's file has, ours has with the same value type.
        for (const auto& kv : ref->metadata()) {
            const gguf::KeyValue* mine = ours->find_key(kv.key);
            QVERIFY2(mine, kv.key.c_str());
            QVERIFY2(mine->value.type == kv.value.type, kv.key.c_str());
        }
    }

    void quantizedTypesFollowLlamaQuantize() {
        // The conformance q8_0 / mxfp4moe files come from llama-quantize: per tensor, the type
        // our recipe picks must be the one llama.cpp picked.
        FOLIO_REQUIRE_CONFORMANCE(conf);
        const QString dir = test::scratchDir(QStringLiteral("make-model-types"));
        const std::pair<std::string, QString> cases[] = {
            {"q8_0", QStringLiteral("/models/ds2-qlora-q8_0.gguf")},
            {"mxfp4-moe", QStringLiteral("/models/ds2-qlora-mxfp4moe.gguf")}};
        for (const auto& [type, refName] : cases) {
            auto ours = openOrFail(makeModel(dir, type, 3, type + ".gguf"));
            auto ref = openOrFail((conf + refName).toStdString());
            QVERIFY(ours && ref);
            int compared = 0;
            for (const auto& rt : ref->tensors()) {
                const gguf::TensorInfo* t = ours->find_tensor(rt.name);
                QVERIFY2(t, rt.name.c_str());
                QVERIFY2(t->type == rt.type,
                         (type + ": " + rt.name + " is " + std::string(dtype_name(t->type)) +
                          ", llama.cpp has " + std::string(dtype_name(rt.type)))
                             .c_str());
                ++compared;
            }
            QCOMPARE(compared, 70);
        }
    }

    void weightStatisticsAreAsDocumented() {
        const QString dir = test::scratchDir(QStringLiteral("make-model-stats"));
        auto f = openOrFail(makeModel(dir, "f32", 11, "stats.gguf"));
        QVERIFY(f);
        auto stats = [&](const char* name) {
            const gguf::TensorInfo* t = f->find_tensor(name);
            const float* v = reinterpret_cast<const float*>(t->data);
            double sum = 0, sq = 0;
            const int64_t n = t->n_elements();
            for (int64_t i = 0; i < n; ++i) {
                sum += v[i];
                sq += double(v[i]) * v[i];
            }
            const double mean = sum / n;
            return std::pair<double, double>(mean, std::sqrt(sq / n - mean * mean));
        };
        auto [m1, s1] = stats("blk.1.attn_q_a.weight"); // N(0, 1/128)
        QVERIFY(std::abs(m1) < 0.01);
        QVERIFY2(std::abs(s1 - 1.0 / std::sqrt(128.0)) < 0.004, qPrintable(QString::number(s1)));
        auto [m2, s2] = stats("token_embd.weight"); // N(0, 1)
        QVERIFY(std::abs(m2) < 0.02 && std::abs(s2 - 1.0) < 0.02);
        auto [m3, s3] = stats("blk.2.ffn_norm.weight"); // 1 + N(0, 0.01²)
        QVERIFY(std::abs(m3 - 1.0) < 0.005 && s3 < 0.02 && s3 > 0.005);
        // Quantized payloads dequantize to the same distribution.
        auto q = openOrFail(makeModel(dir, "q8_0", 11, "stats-q8.gguf"));
        const gguf::TensorInfo* qt = q->find_tensor("blk.1.attn_q_a.weight");
        QCOMPARE(qt->type, DType::Q8_0);
        std::vector<float> row(static_cast<size_t>(qt->ne[0]));
        QVERIFY(dequantize_row(DType::Q8_0, qt->data, row.data(), qt->ne[0]).has_value());
        const float* exact =
            reinterpret_cast<const float*>(f->find_tensor("blk.1.attn_q_a.weight")->data);
        for (int64_t i = 0; i < qt->ne[0]; ++i)
            QVERIFY(std::abs(row[i] - exact[i]) < 0.01f); // Q8_0 step is amax/127 of the block
    }

    void vocabularyIsConsistent() {
        tools::Vocab v = tools::build_tiny_vocab(384, 100);
        QCOMPARE(v.tokens.size(), size_t(384));
        QCOMPARE(v.token_types.size(), size_t(384));
        std::set<std::string> unique(v.tokens.begin(), v.tokens.end());
        QCOMPARE(unique.size(), v.tokens.size());
        QVERIFY(v.merges.size() >= 50);
        for (const std::string& m : v.merges) {
            const auto space = m.find(' ');
            QVERIFY(space != std::string::npos);
            QVERIFY(unique.count(m.substr(0, space) + m.substr(space + 1)) == 1);
        }
        QCOMPARE(v.tokens[v.bos_id], std::string("[BOS]"));
        QCOMPARE(v.tokens[v.eos_id], std::string("[EOS]"));
        QCOMPARE(v.token_types[v.bos_id], 3);
        QCOMPARE(v.tokens[0x20], std::string("\xC4\xA0")); // space -> U+0120 'Ġ' (GPT-2 bytes)
        QCOMPARE(v.tokens['a'], std::string("a"));
        QCOMPARE(v.token_types.back(), 5);
    }

    void kimivlPairLoads() {
        // make-model --arch kimivl writes the projector paired with the deepseek2 preset of the
        // same name: its projection size is that model's hidden size.
        const QString dir = test::scratchDir(QStringLiteral("make-model-kimivl"));
        tools::MakeModelOptions o;
        o.arch = "kimivl";
        o.preset = "tiny";
        o.out = (dir + QStringLiteral("/mmproj.gguf")).toStdString();
        QVERIFY(tools::make_model(o).has_value());
        auto vm = vision::load_vision_model(o.out);
        QVERIFY2(vm.has_value(), vm ? "" : vm.error().to_string().c_str());
        QCOMPARE(vm->hp.n_embd_text, 128u);
        o.preset = "bench";
        QVERIFY(!tools::make_model(o));
    }

    void badOptionsAreNamed() {
        tools::MakeModelOptions o;
        o.out = (test::scratchDir(QStringLiteral("make-model-bad")) + QStringLiteral("/x.gguf"))
                    .toStdString();
        o.type = "q3_x";
        Status s = tools::make_model(o);
        QVERIFY(!s && s.error().message.find("--type 'q3_x'") != std::string::npos);
        o.type = "f32";
        o.preset = "huge";
        s = tools::make_model(o);
        QVERIFY(!s && s.error().message.find("--preset 'huge'") != std::string::npos);
        o.preset = "tiny";
        o.arch = "llama";
        s = tools::make_model(o);
        QVERIFY(!s && s.error().code == ErrorCode::Unsupported);
        o.arch = "deepseek2";
        o.out = "/nonexistent-dir/x.gguf";
        s = tools::make_model(o);
        QVERIFY(!s);
    }
};

QTEST_APPLESS_MAIN(TestMakeModel)
#include "test_make_model.moc"
