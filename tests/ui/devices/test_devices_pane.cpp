// The Devices pane fed synthetic cache statistics (split from test_workbench_parts): the device
// table, the memory bars, the cache line, the block map's colours and the throughput chart's
// points from the counters' deltas.
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QTreeWidget>
#include <QtTest>

#include "backend/engine_stats_q.h"
#include "devices/block_map_view.h"
#include "devices/devices_pane.h"
#include "devices/memory_bars.h"
#include "devices/throughput_chart.h"

#include "support/test_support.h"
#include "ui/workbench_parts.h"

using namespace folio::ui;

class TestDevicesPane : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        folio::test::useScratchSettings(QStringLiteral("devices-pane-xdg"),
                                        QStringLiteral("test_devices_pane"));
    }

    void headersFitTheNarrowestPane() {
        // Issue #48 §11: headers cut off. At the Devices dock's minimum width (260 px) and at
        // its width in the default window on a 1366×768 screen (about 310 px), with a model's
        // facts and cache devices in, every table's columns fit its viewport (no horizontal
        // scroll bar hiding part of a header) and every header label is shown whole.
        for (int width : {260, 310}) {
            DevicesPane pane;
            pane.resize(width, 900);
            pane.setModelFacts(
                {{QStringLiteral("name"), QStringLiteral("tiny-deepseek2-random")},
                 {QStringLiteral("file"), QStringLiteral("ds2-lite-f32.gguf")},
                 {QStringLiteral("weights f32"), QStringLiteral("1.4 MiB in 52 tensors")},
                 {QStringLiteral("placement"),
                  QStringLiteral("cpu: layers 0-1, KV ram0 and the disk tier")}});
            folio::EngineStats es;
            es.model_loaded = true;
            folio::DeviceStats ram;
            ram.name = "ram0";
            ram.budget = int64_t(10.4 * (1 << 30));
            folio::DeviceStats disk;
            disk.name = "disk";
            disk.kind = folio::DeviceKind::Disk;
            es.cache.devices = {ram, disk};
            pane.setEngineStats(toEngineStatsQ(es));
            pane.show();
            QVERIFY(QTest::qWaitForWindowExposed(&pane));
            QTest::qWait(50);
            // The pane itself never needs a horizontal scroll bar (every label wraps).
            auto* scroll = pane.findChild<QScrollArea*>();
            QVERIFY(scroll);
            QVERIFY2(!scroll->horizontalScrollBar()->isVisible(),
                     qPrintable(QStringLiteral("pane at %1 px").arg(width)));
            QList<QTreeWidget*> trees; // Folio's memory, the cache devices, the model's facts
            for (QTreeWidget* tree : pane.findChildren<QTreeWidget*>())
                if (tree->isVisible()) // the server panel's are hidden without a server
                    trees << tree;
            QCOMPARE(trees.size(), 3);
            for (QTreeWidget* tree : trees) {
                const QString what =
                    QStringLiteral("%1 at %2 px").arg(tree->objectName()).arg(width);
                qInfo("%s: viewport %d, header %d (%d %d %d)", qPrintable(what),
                      tree->viewport()->width(), tree->header()->length(),
                      tree->header()->sectionSize(0), tree->header()->sectionSize(1),
                      tree->columnCount() > 2 ? tree->header()->sectionSize(2) : -1);
                QVERIFY2(!tree->horizontalScrollBar()->isVisible(), qPrintable(what));
                QVERIFY2(tree->header()->length() <= tree->viewport()->width(), qPrintable(what));
                const QFontMetrics fm(tree->header()->font());
                for (int c = 0; c < tree->columnCount(); ++c) {
                    const QString label = tree->headerItem()->text(c);
                    QVERIFY2(tree->header()->sectionSize(c) >= fm.horizontalAdvance(label) + 4,
                             qPrintable(QStringLiteral("%1: \"%2\" in %3 px")
                                            .arg(what, label)
                                            .arg(tree->header()->sectionSize(c))));
                }
            }
            pane.grab().save(
                folio::test::scratchDir(QStringLiteral("devices-narrow-%1").arg(width)) +
                QStringLiteral("/devices.png"));
        }
    }

    void devicesPaneShowsSyntheticCacheStats() {
        DevicesPane pane;
        pane.resize(360, 1200);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        folio::EngineStats es;
        es.model_loaded = true;
        es.state = "decode";
        es.context_used = 700;
        es.context_limit = 4096;
        es.window_decode_tps = 42;
        auto device = [](const char* name, folio::DeviceKind kind, int64_t budget, int64_t w,
                         int64_t kv, int64_t state, int64_t blocks) {
            folio::DeviceStats d;
            d.name = name;
            d.kind = kind;
            d.budget = budget;
            d.weights = w;
            d.kv = kv;
            d.state = state;
            d.blocks = blocks;
            return d;
        };
        es.cache.devices = {
            device("ram0", folio::DeviceKind::Ram, 64 << 20, 3 << 20, 8 << 20, 1 << 20, 10),
            device("ram1", folio::DeviceKind::Ram, 64 << 20, 0, 6 << 20, 0, 6),
            device("disk", folio::DeviceKind::Disk, -1, 0, 20 << 20, 0, 20)};
        es.cache.hits = 12;
        es.cache.misses = 3;
        es.cache.bytes_to_disk = 5 << 20;
        es.cache.blocks_ram = 16;
        es.cache.blocks_disk = 20;
        folio::SessionBlockMap a;
        a.session = 1;
        a.tokens = 11 * 64;
        for (int i = 0; i < 11; ++i) {
            folio::BlockCell c;
            c.tier = i < 4 ? folio::BlockTier::Disk
                           : (i == 4 ? folio::BlockTier::Mixed : folio::BlockTier::Ram);
            c.shared = i < 2;
            a.blocks.push_back(c);
        }
        folio::SessionBlockMap b = a;
        b.session = 2;
        es.block_map = {a, b};
        pane.setEngineStats(toEngineStatsQ(es));

        auto* table = pane.findChild<QTreeWidget*>(QStringLiteral("deviceTable"));
        QCOMPARE(table->topLevelItemCount(), 3);
        QCOMPARE(table->topLevelItem(2)->text(0), QStringLiteral("disk"));
        QCOMPARE(table->topLevelItem(2)->text(2), QStringLiteral("unlimited"));
        QCOMPARE(pane.memoryBars()->devices().size(), size_t(3));
        QVERIFY2(MemoryBars::describe(es.cache.devices[0]).contains(QStringLiteral("of 64.0 MiB")),
                 qPrintable(MemoryBars::describe(es.cache.devices[0])));
        QTRY_VERIFY(pane.memoryBars()->height() >= pane.memoryBars()->sizeHint().height());
        auto* label = pane.findChild<QLabel*>(QStringLiteral("cacheLabel"));
        QVERIFY2(label->text().contains(QStringLiteral("hits 12 / misses 3")),
                 qPrintable(label->text()));
        QVERIFY(label->text().contains(QStringLiteral("5.0 MiB to disk")));
        // Rates come from the counters' deltas: one snapshot is a base, the next a point.
        QCOMPARE(pane.throughputChart()->decodePoints(), 0);
        es.decode_tokens_total = 40;
        es.decode_busy_seconds = 0.9;
        es.snapshot_seconds = 1.0;
        pane.setEngineStats(toEngineStatsQ(es));
        QCOMPARE(pane.throughputChart()->decodePoints(), 1);

        // The block map paints each block in its tier's colour; shared blocks get a dark corner.
        BlockMapView* map = pane.blockMap();
        QCOMPARE(map->maps().size(), size_t(2));
        QTRY_VERIFY(map->height() > map->cellRect(1, 10).bottom());
        const QImage img = map->grab().toImage();
        auto at = [&](const QPoint& p) { return QColor(img.pixel(p)); };
        QCOMPARE(at(map->cellRect(0, 6).center()), BlockMapView::tierColor(folio::BlockTier::Ram));
        QCOMPARE(at(map->cellRect(0, 3).center()), BlockMapView::tierColor(folio::BlockTier::Disk));
        QCOMPARE(at(map->cellRect(1, 4).center()),
                 BlockMapView::tierColor(folio::BlockTier::Mixed));
        QVERIFY(at(map->cellRect(0, 0).topLeft() + QPoint(1, 1)).lightness() < 60);
        QVERIFY(at(map->cellRect(0, 2).topLeft() + QPoint(1, 1)).lightness() > 60);

        // The bars: the first device's KV segment is painted in the KV colour (weights are
        // not in the KV budget and not on the bars).
        const QImage bars = pane.memoryBars()->grab().toImage();
        QCOMPARE(QColor(bars.pixel(4, 2 + 17 + 6)), MemoryBars::categoryColor(1));

        // Kept for people (and docs) to look at: the pane with synthetic cache figures.
        QTest::qWait(100); // let the layouts settle
        pane.grab().save(folio::test::scratchDir(QStringLiteral("devices-shot")) +
                         QStringLiteral("/devices.png"));

        es.state = "prefill";
        es.snapshot_seconds = 1.25; // no prefill counted yet: no point
        pane.setEngineStats(toEngineStatsQ(es));
        QCOMPARE(pane.throughputChart()->prefillPoints(), 0);
        // While the prompt is read, the rate comes from the prefill counter between polls.
        es.prefill_tokens_total = 400;
        es.prefill_busy_seconds = 3.9;
        es.snapshot_seconds = 5.25;
        pane.setEngineStats(toEngineStatsQ(es));
        QCOMPARE(pane.throughputChart()->prefillPoints(), 1);
    }
};

QTEST_MAIN(TestDevicesPane)
#include "test_devices_pane.moc"
