// Defaults for long documents in the workbench (issue #22 §5): the load options the settings
// leave to Folio are filled from the engine's plan (folio/context_plan.h, whose arithmetic
// test_context_plan checks on hand-computed machines), and described in plain words.
#include <QtTest>

#include "backend/long_context_defaults.h"
#include "folio/context_plan.h"
#include "folio/model_info.h"
#include "support/test_support.h"

using namespace folio::ui;

class TestLongContextDefaults : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void demoModelGetsItsTrainedContextInF16() {
        const QString path =
            folio::test::builtProgram(QStringLiteral("generated/models/demo-deepseek2.gguf"));
        QVERIFY2(QFile::exists(path), "build folio_demo_model first");
        LoadOptions o;
        o.model = path;
        o.kvType = QStringLiteral("auto");
        const LongContextPlan p = applyLongContextDefaults(o, QString(), false);
        QCOMPARE(o.kvType, QStringLiteral("f16")); // not a DSA model: f16 is safe
        QCOMPARE(o.context, 4096);                 // what the demo model was trained for
        // 4 layers x (kv_lora_rank 64 + rope 16) values x 2 bytes.
        QCOMPARE(p.kvBytesPerToken, 4 * 80 * 2);
        // The RAM budget: half the available memory minus the weights (as the engine plans it).
        const folio::MachineMemory m = folio::machine_memory(std::string());
        const qint64 weights = QFileInfo(path).size();
        const qint64 expected = std::max<qint64>(0, m.available_ram / 2 - weights);
        QVERIFY2(qAbs(o.ramBudget - expected) < (qint64(64) << 20), // MemAvailable moves
                 qPrintable(QStringLiteral("%1 vs %2").arg(o.ramBudget).arg(expected)));
        QVERIFY(o.offloadDir.isEmpty());
        QCOMPARE(p.context, 4096);
        QCOMPARE(p.diskBudget, 0);
    }

    void userChoicesAreKept() {
        const QString path =
            folio::test::builtProgram(QStringLiteral("generated/models/demo-deepseek2.gguf"));
        QVERIFY2(QFile::exists(path), "build folio_demo_model first");
        LoadOptions o;
        o.model = path;
        o.kvType = QStringLiteral("f32");
        o.context = 2048;
        o.ramBudget = qint64(1) << 20;
        const LongContextPlan p = applyLongContextDefaults(o, QString(), false);
        QCOMPARE(o.kvType, QStringLiteral("f32"));
        QCOMPARE(o.context, 2048);
        QCOMPARE(o.ramBudget, qint64(1) << 20);
        QCOMPARE(p.kvBytesPerToken, 4 * 80 * 4);
    }

    void unreadableModelKeepsTheEngineDefaults() {
        LoadOptions o;
        o.model = QStringLiteral("/nonexistent/model.gguf");
        o.kvType = QStringLiteral("auto");
        const LongContextPlan p = applyLongContextDefaults(o, QString(), false);
        QCOMPARE(o.kvType, QStringLiteral("f16"));
        QCOMPARE(o.context, 0);
        QCOMPARE(p.kvBytesPerToken, 0);
        QCOMPARE(describePlan(p), QStringLiteral("context 0"));
    }

    void describesRamAndDisk() {
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
        LongContextPlan p;
        p.context = 131072;
        p.kvBytesPerToken = 2560; // 320 MiB for the whole context
        p.ramBudget = qint64(256) << 20;
        p.diskBudget = qint64(64) << 20;
        QCOMPARE(describePlan(p), QStringLiteral("context 131,072 (RAM %1 + disk %2)")
                                      .arg(QString::fromStdString(folio::format_bytes(256 << 20)),
                                           QString::fromStdString(folio::format_bytes(64 << 20))));
        p.diskBudget = 0;
        p.ramBudget = -1;
        p.limitedByMemory = true;
        QCOMPARE(describePlan(p), QStringLiteral("context 131,072 (RAM %1), limited by memory")
                                      .arg(QString::fromStdString(folio::format_bytes(320 << 20))));
    }
};

QTEST_GUILESS_MAIN(TestLongContextDefaults)
#include "test_long_context_defaults.moc"
