// Defaults for long documents (issue #22 §5): KV bytes per token from a real GGUF's metadata, and
// the context plan against hand-computed budgets.
#include <QtTest>

#include "backend/long_context_defaults.h"
#include "support/test_support.h"

using namespace folio::ui;

class TestLongContextDefaults : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void kvBytesFromTheDemoModel() {
        const QString path =
            folio::test::builtProgram(QStringLiteral("generated/models/demo-deepseek2.gguf"));
        QVERIFY2(QFile::exists(path), "build folio_demo_model first");
        folio::Expected<folio::ModelInfo> info = folio::inspect_model(path.toStdString());
        QVERIFY(info.has_value());
        // 4 layers x (kv_lora_rank 64 + rope 16) values, 2 bytes in f16, 4 in f32.
        QCOMPARE(kvBytesPerToken(*info, QStringLiteral("f16")), 4 * 80 * 2);
        QCOMPARE(kvBytesPerToken(*info, QStringLiteral("f32")), 4 * 80 * 4);
        LoadOptions o;
        o.model = path;
        o.kvType = QStringLiteral("auto");
        const LongContextPlan p = applyLongContextDefaults(o, *info, QString(), false);
        QCOMPARE(o.kvType, QStringLiteral("f16"));
        QCOMPARE(o.context, 4096); // what the demo model was trained for
        QVERIFY(o.ramBudget >= qint64(256) << 20);
        QVERIFY(o.offloadDir.isEmpty());
        QCOMPARE(p.context, 4096);
    }

    void cheapestSafeTypes() {
        QCOMPARE(cheapestSafeKvType(QStringLiteral("deepseek2")), QStringLiteral("f16"));
        QCOMPARE(cheapestSafeKvType(QStringLiteral("kimi-linear")), QStringLiteral("f16"));
        QCOMPARE(cheapestSafeKvType(QStringLiteral("deepseek32")), QStringLiteral("f32"));
    }

    void planFitsInRam() {
        // 8 GiB free, 1 GiB of weights: half of the other 7 GiB for KV; 131,072 tokens x 2,560
        // bytes = 320 MiB fit in RAM, so no disk.
        const LongContextPlan p =
            planLongContext(131072, 2560, qint64(8) << 30, qint64(1) << 30, qint64(100) << 30);
        QCOMPARE(p.context, 131072);
        QCOMPARE(p.ramBudget, qint64(7) << 29);
        QCOMPARE(p.diskBudget, 0);
    }

    void planSpillsToDisk() {
        // 512 MiB left after the weights: 256 MiB of RAM; 2 GiB free disk: up to 1 GiB. The
        // 320 MiB context needs 64 MiB of disk.
        const LongContextPlan p =
            planLongContext(131072, 2560, qint64(1) << 30, qint64(512) << 20, qint64(2) << 30);
        QCOMPARE(p.context, 131072);
        QCOMPARE(p.ramBudget, qint64(256) << 20);
        QCOMPARE(p.diskBudget, qint64(64) << 20);
    }

    void planLimitedByMemory() {
        // No disk tier and 256 MiB of RAM: 268,435,456 / 2,560 = 104,857.6 tokens, in
        // 1,024-token steps: 104,448.
        const LongContextPlan p =
            planLongContext(131072, 2560, qint64(600) << 20, qint64(500) << 20, 0);
        QCOMPARE(p.context, 104448);
        QCOMPARE(p.diskBudget, 0);
        // Never below 4,096 tokens (or the trained context).
        QCOMPARE(planLongContext(131072, qint64(1) << 20, 0, 0, 0).context, 4096);
        QCOMPARE(planLongContext(2048, qint64(1) << 20, 0, 0, 0).context, 2048);
    }

    void describesRamAndDisk() {
        LongContextPlan p;
        p.context = 131072;
        p.kvBytesPerToken = 2560;
        p.ramBudget = qint64(256) << 20;
        p.diskBudget = qint64(64) << 20;
        QCOMPARE(describePlan(p), QStringLiteral("context 131,072 (RAM %1 + disk %2)")
                                      .arg(QString::fromStdString(folio::format_bytes(256 << 20)),
                                           QString::fromStdString(folio::format_bytes(64 << 20))));
    }
};

QTEST_GUILESS_MAIN(TestLongContextDefaults)
#include "test_long_context_defaults.moc"
