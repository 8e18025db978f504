// Defaults for long documents (folio/context_plan.h): the KV footprint of real model files and
// the context a machine's RAM budget plus disk tier holds, against hand-computed numbers.
#include <QtTest>

#include "folio/context_plan.h"
#include "support/test_support.h"

using namespace folio;
using namespace folio::test;

namespace {

constexpr int64_t GiB = 1024ll * 1024 * 1024;

QString demoModel() {
    return builtProgram(QStringLiteral("generated/models/demo-deepseek2.gguf"));
}

} // namespace

class TestContextPlan : public QObject {
    Q_OBJECT
private slots:
    void footprintOfTheDemoModel() {
        // 4 MLA layers, kv_lora_rank 64 + rope 16 = 80 values per token and layer.
        const std::string path = demoModel().toStdString();
        auto f32 = kv_footprint(path, KvType::F32);
        QVERIFY2(f32.has_value(), f32 ? "" : f32.error().message.c_str());
        QCOMPARE(f32->bytes_per_token, int64_t(4 * 80 * 4));
        QCOMPARE(f32->ram_bytes_per_token, int64_t(0));
        QCOMPARE(f32->fixed_bytes, int64_t(0));
        QCOMPARE(f32->trained_context, int64_t(4096));
        QCOMPARE(f32->weights_bytes, int64_t(QFileInfo(demoModel()).size()));
        QVERIFY(!f32->sparse_attention);
        QCOMPARE(kv_footprint(path, KvType::F16)->bytes_per_token, int64_t(4 * 80 * 2));
        // q8_0: 80 values padded to 96 = 3 blocks of 34 bytes.
        QCOMPARE(kv_footprint(path, KvType::Q8_0)->bytes_per_token, int64_t(4 * 3 * 34));
        QCOMPARE(recommended_kv_type(false), KvType::F16);
        QVERIFY(!kv_footprint("/nonexistent/model.gguf", KvType::F16));
    }

    void footprintOfSparseAndRecurrentModels() {
        FOLIO_REQUIRE_CONFORMANCE(dir);
        auto dsa = kv_footprint((dir + QStringLiteral("/models/ds32-f32.gguf")).toStdString(),
                                KvType::F16);
        QVERIFY(dsa.has_value());
        QVERIFY(dsa->sparse_attention);
        QVERIFY(dsa->ram_bytes_per_token > 0); // the index keys stay in RAM
        QCOMPARE(recommended_kv_type(true), KvType::F32);
        auto kda = kv_footprint(
            (dir + QStringLiteral("/models/kimi-linear-f32.gguf")).toStdString(), KvType::F32);
        QVERIFY(kda.has_value());
        QVERIFY(kda->fixed_bytes > 0); // KDA states
        QVERIFY(kda->bytes_per_token > 0 && !kda->sparse_attention);
    }

    void planOnHandComputedMachines() {
        KvFootprint f;
        f.bytes_per_token = 640;
        f.trained_context = 131072;
        f.weights_bytes = GiB;
        // 4 GiB available: RAM budget 2 - 1 = 1 GiB; disk 10 GiB free: budget 5 GiB.
        ContextPlan p = plan_context(f, KvType::F16, KvType::F32, {4 * GiB, 10 * GiB}, "/c");
        QCOMPARE(p.cache.ram_budget, GiB);
        QCOMPARE(p.cache.disk_budget, 5 * GiB);
        QCOMPARE(p.cache.offload_dir, std::string("/c"));
        QCOMPARE(p.cache.kv_type, KvType::F16);
        QCOMPARE(p.capacity_tokens, int64_t(6 * GiB / 640)); // 10066329
        QCOMPARE(p.context, int64_t(131072));
        QVERIFY(!p.limited_by_memory);
        QCOMPARE(p.ram_tokens, int64_t(131072));
        QCOMPARE(p.disk_tokens, int64_t(0));

        // A bigger model's 40960 bytes per token: RAM budget 0.5 GiB holds 13107 tokens.
        f.bytes_per_token = 40960;
        p = plan_context(f, KvType::F16, KvType::F32, {3 * GiB, -1}, "/c");
        QVERIFY(p.cache.offload_dir.empty()); // no disk
        QCOMPARE(p.capacity_tokens, int64_t(13107));
        QCOMPARE(p.context, int64_t(13056)); // whole 64-token blocks
        QVERIFY(p.limited_by_memory);
        QCOMPARE(p.ram_tokens, int64_t(13056));
        QCOMPARE(p.disk_tokens, int64_t(0));
        // With 1 GiB free on disk (budget 0.5 GiB) the context doubles, half of it on disk.
        p = plan_context(f, KvType::F16, KvType::F32, {3 * GiB, GiB}, "/c");
        QCOMPARE(p.capacity_tokens, int64_t(26214));
        QCOMPARE(p.context, int64_t(26176));
        QCOMPARE(p.ram_tokens, int64_t(13107));
        QCOMPARE(p.disk_tokens, int64_t(26176 - 13107));

        // DSA-like: 1000 movable + 200 RAM-only bytes per token, 1 MB of fixed state.
        KvFootprint d;
        d.bytes_per_token = 1000;
        d.ram_bytes_per_token = 200;
        d.fixed_bytes = 1000000;
        d.trained_context = 131072;
        p = plan_context(d, KvType::F32, KvType::F32, {20000000, 100000000}, "/c");
        QCOMPARE(p.cache.ram_budget, int64_t(10000000));
        QCOMPARE(p.bytes_per_token, int64_t(1200));
        // (9e6 + 5e7) / 1200 = 49166, but the index keys alone fill 9e6 / 200 = 45000.
        QCOMPARE(p.capacity_tokens, int64_t(45000));
        QCOMPARE(p.context, int64_t(44992));
        QCOMPARE(p.ram_tokens, int64_t(1)); // (9e6 - 44992 * 200) / 1000
        QCOMPARE(p.disk_tokens, int64_t(44991));

        // Nothing available: the context stays at the floor, over the budget.
        p = plan_context(f, KvType::F16, KvType::F32, {0, -1}, "");
        QCOMPARE(p.cache.ram_budget, int64_t(0));
        QCOMPARE(p.context, kMinContext);
        QVERIFY(p.limited_by_memory);
        QCOMPARE(p.ram_tokens + p.disk_tokens, int64_t(0));
    }

    void machineAndRecommendation() {
        const QString folder = scratchDir(QStringLiteral("plan")) + QStringLiteral("/not/yet");
        const MachineMemory m = machine_memory(folder.toStdString());
        QVERIFY(m.available_ram > 0);
        QVERIFY(m.disk_free > 0); // from the nearest existing parent
        auto p = recommend_context(demoModel().toStdString(), folder.toStdString());
        QVERIFY(p.has_value());
        QCOMPARE(p->cache.kv_type, KvType::F16);
        QCOMPARE(p->bytes_per_token, int64_t(640));
        QCOMPARE(p->cache.offload_dir, folder.toStdString());
        QCOMPARE(p->context, int64_t(4096)); // the trained context; any machine holds 2.6 MB
    }
};

QTEST_GUILESS_MAIN(TestContextPlan)
#include "test_context_plan.moc"
