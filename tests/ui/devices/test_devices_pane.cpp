// The Devices pane fed synthetic cache statistics (split from test_workbench_parts): the device
// table, the memory bars, the cache line, the block map's colours and the throughput chart's
// points from the counters' deltas.
#include <QLabel>
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
        QCOMPARE(table->topLevelItem(2)->text(3), QStringLiteral("unlimited"));
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
