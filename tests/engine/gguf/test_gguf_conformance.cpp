// The llama.cpp conformance files through the GGUF reader (ggml's docs/gguf.md): every file
// opens, inspect_model's figures (parameters, experts, types, metadata) on ds2-qlora, the
// quantized files' tensor types, and `folio-cli info` on a good and a truncated file.
#include <QtTest>

#include "gguf_fixtures.h"
#include "gguf_helpers.h"
#include "support/test_support.h"

#include "folio/model_info.h"
#include "gguf/gguf_file.h"

#include <QDir>
#include <QProcess>

#include <array>

using namespace folio;
using namespace folio::test;

class TestGgufConformance : public QObject {
    Q_OBJECT
private slots:
    void conformanceFilesOpen();
    void conformanceDs2QloraDetails();
    void conformanceQuantizedTypes();
    void cliInfo();
};

void TestGgufConformance::conformanceFilesOpen() {
    FOLIO_REQUIRE_CONFORMANCE(dir);
    QStringList files;
    for (const QString& name : QDir(dir + "/models").entryList({"*.gguf"}, QDir::Files))
        files << dir + "/models/" + name;
    files << dir + "/tokenizer/deepseek-v3-vocab.gguf";
    QVERIFY(files.size() >= 12);
    for (const QString& path : files) {
        auto f = gguf::File::open(path.toStdString());
        QVERIFY2(f, f ? "" : f.error().message.c_str());
        QVERIFY((*f)->architecture());
        auto info = inspect_model(path.toStdString());
        QVERIFY2(info, info ? "" : info.error().message.c_str());
        uint64_t sum = 0;
        for (const gguf::TensorInfo& t : (*f)->tensors())
            sum += static_cast<uint64_t>(t.n_elements());
        QCOMPARE(info->parameter_count, sum);
        QCOMPARE(info->tensor_count, uint64_t((*f)->tensors().size()));
        QCOMPARE(info->file_size, uint64_t(QFileInfo(path).size()));
        QCOMPARE(info->metadata.size(), (*f)->metadata().size());
        uint64_t by_type_params = 0;
        for (const TensorTypeSummary& s : info->by_type)
            by_type_params += s.params;
        QCOMPARE(by_type_params, sum);
    }
}

void TestGgufConformance::conformanceDs2QloraDetails() {
    FOLIO_REQUIRE_CONFORMANCE(dir);
    const std::string path = (dir + "/models/ds2-qlora-f32.gguf").toStdString();
    auto f = gguf::File::open(path);
    QVERIFY(f);
    QCOMPARE(q((*f)->architecture().value()), QStringLiteral("deepseek2"));
    QCOMPARE(*(*f)->get_u32("deepseek2.expert_count").value(), 8u);
    QCOMPARE((*f)->get_string_array("tokenizer.ggml.tokens").value()->size(), size_t(320));
    const gguf::TensorInfo* t = (*f)->find_tensor("blk.1.ffn_gate_exps.weight");
    QVERIFY(t != nullptr);
    QCOMPARE(t->n_dims, 3u);
    QCOMPARE(t->ne, (std::array<int64_t, 4>{128, 32, 8, 1}));
    QCOMPARE(t->type, DType::F32);
    QCOMPARE(t->size_bytes, uint64_t(128 * 32 * 8 * 4));

    auto info = inspect_model(path);
    QVERIFY(info);
    QCOMPARE(q(info->architecture), QStringLiteral("deepseek2"));
    QCOMPARE(info->vocab_size, uint64_t(320));
    QCOMPARE(info->expert_count, 8u);
    QCOMPARE(info->expert_used_count, 2u);
    QCOMPARE(info->context_length, uint64_t(4096));
    QCOMPARE(info->file_size, uint64_t(2897248));
    // Active = total − routed experts + routed experts · 2/8.
    uint64_t experts = 0;
    for (const gguf::TensorInfo& ti : (*f)->tensors())
        if (ti.name.find("_exps") != std::string::npos)
            experts += static_cast<uint64_t>(ti.n_elements());
    QVERIFY(experts > 0);
    QCOMPARE(info->active_parameter_count, info->parameter_count - experts + experts * 2 / 8);
    QCOMPARE(info->by_type.size(), size_t(1));
    QCOMPARE(q(info->by_type[0].type_name), QStringLiteral("f32"));
    bool tokens_summarized = false;
    for (const MetadataEntry& e : info->metadata)
        if (e.key == "tokenizer.ggml.tokens") {
            QCOMPARE(q(e.type_name), QStringLiteral("array[string]"));
            QVERIFY2(q(e.display).startsWith("[320 strings: \"") && q(e.display).endsWith("... ]"),
                     e.display.c_str());
            tokens_summarized = true;
        }
    QVERIFY(tokens_summarized);
}

void TestGgufConformance::conformanceQuantizedTypes() {
    FOLIO_REQUIRE_CONFORMANCE(dir);
    // README §1: Q8_0 files quantize every 2-D/3-D weight but the router; MXFP4_MOE files put
    // the routed experts and attn_k_b/attn_v_b in MXFP4 and the other matrices in Q8_0.
    for (const char* name : {"ds2-qlora-q8_0.gguf", "kimi-linear-q8_0.gguf"}) {
        auto f = gguf::File::open((dir + "/models/" + name).toStdString());
        QVERIFY2(f, name);
        QCOMPARE((*f)->find_tensor("token_embd.weight")->type, DType::Q8_0);
        QCOMPARE((*f)->find_tensor("blk.1.ffn_gate_exps.weight")->type, DType::Q8_0);
        QCOMPARE((*f)->find_tensor("blk.1.ffn_gate_inp.weight")->type, DType::F32);
        QCOMPARE((*f)->find_tensor("output_norm.weight")->type, DType::F32);
    }
    for (const char* name : {"ds2-qlora-mxfp4moe.gguf", "kimi-linear-mxfp4moe.gguf"}) {
        auto f = gguf::File::open((dir + "/models/" + name).toStdString());
        QVERIFY2(f, name);
        QCOMPARE((*f)->find_tensor("blk.1.ffn_down_exps.weight")->type, DType::MXFP4);
        QCOMPARE((*f)->find_tensor("token_embd.weight")->type, DType::Q8_0);
        QCOMPARE((*f)->find_tensor("blk.1.ffn_gate_inp.weight")->type, DType::F32);
        auto info = inspect_model((dir + "/models/" + name).toStdString());
        QVERIFY(info);
        QStringList types;
        for (const TensorTypeSummary& s : info->by_type)
            types << q(s.type_name);
        types.sort();
        QCOMPARE(types, (QStringList{"f32", "mxfp4", "q8_0"}));
    }
}

void TestGgufConformance::cliInfo() {
    FOLIO_REQUIRE_CONFORMANCE(dir);
    const QString cli = builtProgram("app/folio-cli");
    QVERIFY2(QFileInfo::exists(cli), qPrintable(cli));
    QProcess ok;
    ok.start(cli, {"info", dir + "/models/ds2-qlora-f32.gguf"});
    QVERIFY(ok.waitForFinished(30000));
    const QString out = QString::fromUtf8(ok.readAllStandardOutput());
    QCOMPARE(ok.exitStatus(), QProcess::NormalExit);
    QCOMPARE(ok.exitCode(), 0);
    QVERIFY(out.contains("architecture: deepseek2"));
    QVERIFY(out.contains("parameters:"));
    QVERIFY(out.contains("active parameters per token:"));
    QVERIFY(out.contains("[320 strings:"));

    const std::string bad = scratch("cli") + "/truncated.gguf";
    Bytes b = read_file((dir + "/models/ds2-qlora-f32.gguf").toStdString());
    QVERIFY(write_file(bad, truncated(b, b.size() / 2)));
    QProcess fail;
    fail.start(cli, {"info", q(bad)});
    QVERIFY(fail.waitForFinished(30000));
    QCOMPARE(fail.exitStatus(), QProcess::NormalExit);
    QCOMPARE(fail.exitCode(), 1);
    const QString err = QString::fromUtf8(fail.readAllStandardError());
    QVERIFY2(err.startsWith("error:"), qPrintable(err));
    QVERIFY2(err.contains("truncated.gguf"), qPrintable(err));
    QVERIFY(fail.readAllStandardOutput().isEmpty());
}

QTEST_GUILESS_MAIN(TestGgufConformance)
#include "test_gguf_conformance.moc"
