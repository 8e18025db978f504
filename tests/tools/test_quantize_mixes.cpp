// folio-cli quantize's llama-quantize mixtures (q3_k_m, q4_k_m, q5_k_m, q6_k, iq4_xs;
// tools/quantize/llama_mix.h) against llama-quantize's own files of conformance/quant: the same
// type for every tensor (the fallbacks of rows that are not multiples of 256 included) and, for
// the file types made without an importance matrix, the same bytes. The iq4_xs output also loads
// and is about as close to llama.cpp's F32 logits as llama-quantize's own IQ4_XS file.
#include "quantize/quantize_model.h"
#include "support/goldens.h"
#include "support/test_support.h"

#include "folio/model_info.h"
#include "gguf/gguf_file.h"

#include <QRegularExpression>
#include <QTest>

#include <algorithm>
#include <cstring>
#include <map>

using namespace folio;
using namespace folio::test;
using namespace folio::tools;

class TestQuantizeMixes : public QObject {
    Q_OBJECT
private slots:
    void recipeTypes() {
        auto r = load_recipe("q4_k_m");
        QVERIFY(r && r->llama_mix && *r->llama_mix == LlamaFtype::Q4_K_M);
        QCOMPARE(r->file_type, 15u);
        LlamaMixModel m;
        m.n_layer = 8;
        m.n_expert = 0;
        m.tied_embeddings = false;
        m.n_attention_wv = 8;
        LlamaMix mix(LlamaFtype::Q4_K_M, m);
        // use_more_bits(i, 8): i < 1, i >= 7, (i - 1) % 3 == 2 -> layers 0, 3, 6, 7.
        const DType want[8] = {DType::Q6_K, DType::Q4_K, DType::Q4_K, DType::Q6_K,
                               DType::Q4_K, DType::Q4_K, DType::Q6_K, DType::Q6_K};
        for (int i = 0; i < 8; ++i)
            QCOMPARE(mix.type_for("blk." + std::to_string(i) + ".ffn_down.weight", 512), want[i]);
        QCOMPARE(mix.type_for("output.weight", 512), DType::Q6_K);
        QCOMPARE(mix.type_for("blk.0.attn_q.weight", 512), DType::Q4_K);
        // Rows that are not multiples of 256: llama.cpp's fallbacks.
        QCOMPARE(mix.type_for("blk.0.attn_q.weight", 160), DType::Q5_0);
        QCOMPARE(mix.type_for("output.weight", 160), DType::Q8_0);
        LlamaMix q5(LlamaFtype::Q5_K_M, m);
        QCOMPARE(q5.type_for("blk.1.ffn_up.weight", 96), DType::Q5_1);
        LlamaMix q6(LlamaFtype::Q6_K, m);
        QCOMPARE(q6.type_for("blk.1.ffn_up.weight", 96), DType::Q8_0);
        LlamaMix iq4(LlamaFtype::IQ4_XS, m);
        QCOMPARE(iq4.type_for("blk.1.ffn_up.weight", 96), DType::IQ4_NL);
        QCOMPARE(iq4.type_for("blk.1.ffn_up.weight", 48), DType::F16);
    }

    // `folio-cli info` prints the type mix: one line per type with its tensor count and bytes,
    // which must add up to what the GGUF reader finds in llama-quantize's Q4_K_M file.
    void cliInfoTypeMix() {
        FOLIO_REQUIRE_CONFORMANCE(root);
        const QString path = root + "/quant/models/qa-ds2-q4_k_m.gguf";
        if (!QFile::exists(path)) {
            if (isCi())
                QFAIL("quant conformance models missing and CI=true");
            QSKIP("quant conformance models not found");
        }
        auto f = gguf::File::open(path.toStdString());
        QVERIFY(f);
        std::map<std::string, std::pair<int, uint64_t>> want; // type -> (tensors, bytes)
        for (const auto& t : (*f)->tensors()) {
            auto& w = want[std::string(dtype_name(t.type))];
            ++w.first;
            w.second += t.size_bytes;
        }
        QVERIFY(want.size() >= 4); // q4_K, q6_K, q5_0 / q8_0 fallbacks, f32
        const CliRun run = runCli({"info", path}, 30000);
        QCOMPARE(run.exitCode, 0);
        for (const auto& [type, counts] : want) {
            // "  q4_K        20 tensors     1.07 MiB  73.1 %   ..."
            const QRegularExpression line(
                QString("\\n  %1 +%2 tensors +%3 ")
                    .arg(QString::fromStdString(type))
                    .arg(counts.first)
                    .arg(QRegularExpression::escape(
                        QString::fromStdString(format_bytes(counts.second)))));
            QVERIFY2(line.match(run.out).hasMatch(),
                     qPrintable(QString::fromStdString(type) + " not listed as expected in:\n" +
                                run.out));
        }
    }

    void sameTypesAndBytesAsLlamaQuantize_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("recipe");
        QTest::addColumn<bool>("sameBytes"); // false: llama.cpp used an importance matrix
        for (const char* r : {"q3_k_m", "q4_k_m", "q5_k_m", "q6_k"})
            QTest::newRow(qPrintable(QString("ds2 ") + r)) << "qa-ds2" << r << true;
        for (const char* r : {"q4_k_m", "q5_k_m", "q6_k"}) {
            QTest::newRow(qPrintable(QString("kl ") + r)) << "qa-kl" << r << true;
            QTest::newRow(qPrintable(QString("ds32 ") + r)) << "qa-ds32" << r << true;
        }
        for (const char* m : {"qa-ds2", "qa-kl", "qa-ds32"})
            QTest::newRow(qPrintable(QString(m) + " iq4_xs")) << m << "iq4_xs" << false;
    }

    void sameTypesAndBytesAsLlamaQuantize() {
        QFETCH(QString, model);
        QFETCH(QString, recipe);
        QFETCH(bool, sameBytes);
        FOLIO_REQUIRE_CONFORMANCE(root);
        const QString dir = root + "/quant/models/";
        if (!QFile::exists(dir + model + "-f32.gguf")) {
            if (isCi())
                QFAIL("quant conformance models missing and CI=true");
            QSKIP("quant conformance models not found");
        }
        QuantizeOptions o;
        o.in = (dir + model + "-f32.gguf").toStdString();
        o.out = (scratchDir("mix-" + model + "-" + recipe) + "/out.gguf").toStdString();
        o.recipe = *load_recipe(recipe.toStdString());
        o.threads = 2;
        auto report = quantize_model(o);
        QVERIFY2(report.has_value(), report ? "" : report.error().to_string().c_str());
        auto ours = gguf::File::open(o.out);
        auto ref = gguf::File::open((dir + model + "-" + recipe + ".gguf").toStdString());
        QVERIFY(ours && ref);
        QCOMPARE((*ours)->tensors().size(), (*ref)->tensors().size());
        int same_bytes = 0;
        for (const auto& t : (*ref)->tensors()) {
            const auto* mine = (*ours)->find_tensor(t.name);
            QVERIFY2(mine, t.name.c_str());
            QCOMPARE(mine->ne, t.ne);
            // Folio's model layer takes the DSA indexer's proj weight in f32 only (llama.cpp
            // quantizes it), so our recipes keep it.
            if (t.name.find("indexer.proj") != std::string::npos) {
                QCOMPARE(mine->type, DType::F32);
                continue;
            }
            QVERIFY2(mine->type == t.type,
                     qPrintable(QString("%1: ours %2, llama-quantize %3")
                                    .arg(t.name.c_str())
                                    .arg(std::string(dtype_name(mine->type)).c_str())
                                    .arg(std::string(dtype_name(t.type)).c_str())));
            if (sameBytes || t.type == DType::F32) {
                QVERIFY2(std::memcmp(mine->data, t.data, t.size_bytes) == 0, t.name.c_str());
                ++same_bytes;
            }
        }
        qInfo("%s %s: %zu tensors, same types, %d byte-identical", qPrintable(model),
              qPrintable(recipe), (*ref)->tensors().size(), same_bytes);
        // Without an importance matrix and with llama.cpp's indexer types (all but deepseek32),
        // the whole file is llama-quantize's: metadata order, tensor order and offsets.
        if (sameBytes && model != "qa-ds32") {
            QFile a(QString::fromStdString(o.out)), b(dir + model + "-" + recipe + ".gguf");
            QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
            QVERIFY2(a.readAll() == b.readAll(), "file bytes differ from llama-quantize's");
        }
        if (recipe != "iq4_xs")
            return;
        // Our IQ4_XS file (no importance matrix) is about as close to llama.cpp's F32 logits as
        // llama-quantize's own IQ4_XS file (made with an importance matrix): on these tiny
        // random-weight models 4-bit weights move the flat logits by ~1, whoever quantizes.
        const Golden f32 = loadGolden(root + "/quant", model + "-f32");
        const Golden theirs = loadGolden(root + "/quant", model + "-iq4_xs");
        QVERIFY(f32.n_vocab > 0 && theirs.sequences.size() == f32.sequences.size());
        auto m = loadDecoder(QString::fromStdString(o.out));
        QVERIFY(m);
        for (int i = 0; i < f32.sequences.size(); ++i) {
            const auto& s = f32.sequences[i];
            const auto ours =
                compareLogits(evaluateAll(*m, s.tokens, false), s.logits, f32.n_vocab);
            const auto ref = compareLogits(theirs.sequences[i].logits, s.logits, f32.n_vocab);
            qInfo("%s %s vs f32: ours mean row max %.3g argmax %d/%d; llama-quantize's %.3g %d/%d",
                  qPrintable(model), qPrintable(s.name), ours.meanRowMax, ours.argmaxAgree,
                  ours.rows, ref.meanRowMax, ref.argmaxAgree, ref.rows);
            QVERIFY(ours.meanRowMax <= 1.25 * ref.meanRowMax + 0.05);
            QVERIFY(ours.argmaxAgree >= ref.argmaxAgree - std::max(2, ours.rows / 10));
        }
    }
};

QTEST_APPLESS_MAIN(TestQuantizeMixes)
#include "test_quantize_mixes.moc"
