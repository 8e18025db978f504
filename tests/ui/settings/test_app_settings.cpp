// The application's settings (split from test_workbench_parts): saved and loaded into the
// engine's ModelSpec, and every field edited through the Settings dialog.
#include <QCheckBox>
#include <QComboBox>
#include <QSpinBox>
#include <QStandardPaths>
#include <QtTest>

#include "backend/load_options.h"
#include "settings/app_settings.h"
#include "settings/settings_dialog.h"

#include "support/test_support.h"
#include "ui/workbench_parts.h"

using namespace folio::ui;

class TestAppSettings : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        folio::test::useScratchSettings(QStringLiteral("app-settings-xdg"),
                                        QStringLiteral("test_app_settings"));
    }

    void settingsBecomeTheModelSpec() {
        AppSettings s = AppSettings::load();
        // Long-document defaults (issue #22 §5): the KV type is chosen per model at load time
        // (backend/long_context_defaults.h), the disk tier is on.
        QCOMPARE(s.kvType, QStringLiteral("auto"));
        QVERIFY(s.offloadEnabled);
        QVERIFY(s.offloadDir.startsWith(
            QStandardPaths::writableLocation(QStandardPaths::CacheLocation)));
        s.rememberModel(QStringLiteral("/m/a.gguf"));
        s.rememberModel(QStringLiteral("/m/b.gguf"));
        s.rememberModel(QStringLiteral("/m/a.gguf"));
        s.mmprojPath = QStringLiteral("/m/mmproj.gguf");
        s.threads = 3;
        s.context = 8192;
        s.ramBudgetMiB = 512;
        s.offloadEnabled = true;
        s.kvType = QStringLiteral("q8_0");
        s.speculation = false;
        QCOMPARE(s.weightsMemory, QStringLiteral("mapped"));
        QCOMPARE(toModelSpec(s.loadOptions()).weights, folio::WeightsMemory::Mapped);
        s.weightsMemory = QStringLiteral("auto");
        s.save();
        const AppSettings back = AppSettings::load();
        QCOMPARE(back.weightsMemory, QStringLiteral("auto"));
        QCOMPARE(toModelSpec(back.loadOptions()).weights, folio::WeightsMemory::Auto);
        QCOMPARE(back.recentModels,
                 (QStringList{QStringLiteral("/m/a.gguf"), QStringLiteral("/m/b.gguf")}));
        const folio::ModelSpec spec = toModelSpec(back.loadOptions());
        QCOMPARE(spec.gguf, std::string("/m/a.gguf"));
        QCOMPARE(spec.mmproj, std::string("/m/mmproj.gguf"));
        QCOMPARE(spec.threads, 3);
        QCOMPARE(spec.context, int64_t(8192));
        QCOMPARE(spec.cache.kv_type, folio::KvType::Q8_0);
        QCOMPARE(spec.cache.ram_budget, int64_t(512) * 1024 * 1024);
        QCOMPARE(QString::fromStdString(spec.cache.offload_dir), back.offloadDir);
        QVERIFY(!back.loadOptions().speculation);
        AppSettings off = back;
        off.offloadEnabled = false;
        off.ramBudgetMiB = 0;
        QVERIFY(toModelSpec(off.loadOptions()).cache.offload_dir.empty());
        QCOMPARE(toModelSpec(off.loadOptions()).cache.ram_budget, int64_t(-1));
    }

    void settingsDialogEditsEveryField() {
        AppSettings s;
        s.recentModels = {QStringLiteral("/m/a.gguf")};
        s.modelPath = QStringLiteral("/m/a.gguf");
        s.offloadDir = QStringLiteral("/tmp/off");
        SettingsDialog d(s);
        d.show();
        QVERIFY(QTest::qWaitForWindowExposed(&d));
        d.grab().save(folio::test::scratchDir(QStringLiteral("settings-shot")) +
                      QStringLiteral("/settings.png"));
        d.findChild<QComboBox*>(QStringLiteral("modelPathCombo"))
            ->setCurrentText(QStringLiteral("/m/b.gguf"));
        d.findChild<QComboBox*>(QStringLiteral("mmprojPathCombo"))
            ->setCurrentText(QStringLiteral("/m/p.gguf"));
        d.findChild<QSpinBox*>(QStringLiteral("threadsBox"))->setValue(2);
        d.findChild<QSpinBox*>(QStringLiteral("contextBox"))->setValue(16384);
        d.findChild<QSpinBox*>(QStringLiteral("ramBudgetBox"))->setValue(1024);
        d.findChild<QCheckBox*>(QStringLiteral("offloadCheck"))->setChecked(true);
        auto* kv = d.findChild<QComboBox*>(QStringLiteral("kvTypeCombo"));
        // "auto" is said in words (translated); the types keep their names (issue #48 §14).
        QCOMPARE(kv->itemText(kv->findData(QStringLiteral("auto"))), QStringLiteral("automatic"));
        QCOMPARE(kv->itemText(kv->findData(QStringLiteral("q8_0"))), QStringLiteral("q8_0"));
        kv->setCurrentText(QStringLiteral("bf16"));
        d.findChild<QCheckBox*>(QStringLiteral("speculationCheck"))->setChecked(false);
        auto* weights = d.findChild<QComboBox*>(QStringLiteral("weightsMemoryCombo"));
        QCOMPARE(weights->currentData().toString(), QStringLiteral("mapped"));
        weights->setCurrentIndex(weights->findData(QStringLiteral("ram")));
        const AppSettings out = d.settings();
        QCOMPARE(out.weightsMemory, QStringLiteral("ram"));
        QCOMPARE(toModelSpec(out.loadOptions()).weights, folio::WeightsMemory::Ram);
        QCOMPARE(out.modelPath, QStringLiteral("/m/b.gguf"));
        QCOMPARE(out.recentModels,
                 (QStringList{QStringLiteral("/m/b.gguf"), QStringLiteral("/m/a.gguf")}));
        QCOMPARE(out.mmprojPath, QStringLiteral("/m/p.gguf"));
        QCOMPARE(out.recentMmproj, QStringList{QStringLiteral("/m/p.gguf")});
        QCOMPARE(out.threads, 2);
        QCOMPARE(out.context, 16384);
        QCOMPARE(out.ramBudgetMiB, 1024);
        QVERIFY(out.offloadEnabled);
        QCOMPARE(out.offloadDir, QStringLiteral("/tmp/off"));
        QCOMPARE(out.kvType, QStringLiteral("bf16"));
        QVERIFY(!out.speculation);
        QCOMPARE(toModelSpec(out.loadOptions()).cache.kv_type, folio::KvType::BF16);
    }
};

QTEST_MAIN(TestAppSettings)
#include "test_app_settings.moc"
