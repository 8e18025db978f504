// The Devices pane's figures, checked against hand-computed values: chart rates from the
// engine's cumulative counters over wall time (not one chunk over one poll), lines broken over
// idle gaps, axis ticks at 1/2/5 × 10^k, the KV budget bar holding only KV and state, Folio's
// memory by category beside the machine's, the cached-token figure after a cancelled prefill,
// tooltips, the table view, human-readable durations and ETAs; and the weights residency read
// from /proc/self/smaps.

#include "backend/engine_stats_q.h"
#include "core/pipeline/human_format.h"
#include "devices/block_map_view.h"
#include "devices/devices_pane.h"
#include "devices/folio_memory_view.h"
#include "devices/memory_bars.h"
#include "devices/throughput_chart.h"
#include "devices/throughput_rates.h"
#include "runtime/engine_statistics.h"
#include "runtime/mapped_residency.h"
#include "support/test_support.h"

#include <QAbstractItemModel>
#include <QAction>
#include <QFile>
#include <QLineSeries>
#include <QStackedWidget>
#include <QStandardItemModel>
#include <QTableView>
#include <QTest>
#include <QTreeWidget>
#include <QValueAxis>

#include <sys/mman.h>

#include <cmath>
#include <limits>

using namespace folio::ui;

namespace {

constexpr qint64 kMiB = 1 << 20;

EngineStatsQ poll(const char* state, double seconds, qint64 prefillTokens, double prefillBusy,
                  qint64 decodeTokens = 0, double decodeBusy = 0) {
    EngineStatsQ s;
    s.modelLoaded = true;
    s.state = QString::fromLatin1(state);
    s.snapshotSeconds = seconds;
    s.prefillTokensTotal = prefillTokens;
    s.prefillBusySeconds = prefillBusy;
    s.decodeTokensTotal = decodeTokens;
    s.decodeBusySeconds = decodeBusy;
    return s;
}

folio::DeviceStats device(const char* name, folio::DeviceKind kind, qint64 budget, qint64 weights,
                          qint64 kv, qint64 state, qint64 scratch) {
    folio::DeviceStats d;
    d.name = name;
    d.kind = kind;
    d.budget = budget;
    d.weights = weights;
    d.kv = kv;
    d.state = state;
    d.scratch = scratch;
    return d;
}

} // namespace

class TestDevicesNumbers : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates)); }

    void humanDurationCases() {
        // Hand-computed: under a minute to the second; under 10 min as "m min s s"; then minutes;
        // from an hour "h h m min"; from two days "d d h h".
        QCOMPARE(humanDuration(0), QStringLiteral("0 s"));
        QCOMPARE(humanDuration(5.4), QStringLiteral("5 s"));
        QCOMPARE(humanDuration(59.4), QStringLiteral("59 s"));
        QCOMPARE(humanDuration(59.6), QStringLiteral("1 min")); // rounds to 60 s
        QCOMPARE(humanDuration(90), QStringLiteral("1 min 30 s"));
        QCOMPARE(humanDuration(599.6), QStringLiteral("10 min"));  // 600 s: minutes from here
        QCOMPARE(humanDuration(2541.3), QStringLiteral("42 min")); // 42.355 min
        QCOMPARE(humanDuration(3599), QStringLiteral("1 h"));      // 59.98 min -> 60 min
        QCOMPARE(humanDuration(4800), QStringLiteral("1 h 20 min"));
        QCOMPARE(humanDuration(7200), QStringLiteral("2 h"));
        QCOMPARE(humanDuration(183600), QStringLiteral("2 d 3 h")); // 51 h
        QCOMPARE(humanDuration(-1), QStringLiteral("—"));
    }

    void humanEtaCases() {
        QCOMPARE(humanEta(5), QStringLiteral("about 5 s"));
        QCOMPARE(humanEta(2541.3), QStringLiteral("about 42 min"));
        QCOMPARE(humanEta(4790), QStringLiteral("about 1 h 20 min")); // 79.8 min -> 80
        QCOMPARE(humanEta(0.2), QStringLiteral("under a second"));
        QCOMPARE(humanEta(-3), QStringLiteral("unknown"));
        QCOMPARE(humanEta(std::numeric_limits<double>::quiet_NaN()), QStringLiteral("unknown"));
        QCOMPARE(humanEta(std::numeric_limits<double>::infinity()), QStringLiteral("unknown"));
    }

    void rateFromCountersOverWallTime() {
        // A 512-token chunk lands between two polls 250 ms apart, but the counters say the
        // previous chunk ended 5.25 s earlier: 512 / 5.25 = 97.52 t/s, not 512 / 0.25 = 2,048.
        ThroughputRates rates;
        QVERIFY(!rates.feed(poll("prefill", 10.0, 1024, 9.0)).prefill);  // the base
        QVERIFY(!rates.feed(poll("prefill", 10.25, 1024, 9.0)).prefill); // no movement, no point
        QVERIFY(!rates.feed(poll("prefill", 15.0, 1024, 9.0)).prefill);
        const ThroughputPoint p = rates.feed(poll("prefill", 15.25, 1536, 14.2));
        QVERIFY(p.prefill);
        QVERIFY(!p.decode);
        QVERIFY2(std::abs(p.prefill->rate - 512.0 / 5.25) < 1e-9,
                 qPrintable(QString::number(p.prefill->rate)));
        QVERIFY(!p.prefill->startsSegment);

        // Decode: polls under a second apart while the work goes on are merged: 15 tokens
        // after 0.25 s make no point; 60 tokens after 1.0 s of wall time are 60 t/s, whatever
        // the steps' own times (0.8 s).
        ThroughputRates d;
        d.feed(poll("decode", 100.0, 0, 0, 200, 7.0));
        QVERIFY(!d.feed(poll("decode", 100.25, 0, 0, 215, 7.2)).decode);
        ThroughputPoint q = d.feed(poll("decode", 101.0, 0, 0, 260, 7.8));
        QVERIFY(q.decode);
        QCOMPARE(q.decode->rate, 60.0);
        // The answer ends 0.5 s later with 10 more tokens in 0.2 s of work: the engine is idle
        // at the poll, so the point is not held back and divides by the work (10 / 0.2 = 50).
        q = d.feed(poll("idle", 101.5, 0, 0, 270, 8.0));
        QVERIFY(q.decode);
        QVERIFY(std::abs(q.decode->rate - 50.0) < 1e-9);
        QVERIFY(!q.decode->startsSegment);
    }

    void idleGapsBreakTheLine() {
        ThroughputRates rates;
        rates.feed(poll("idle", 0, 0, 0)); // idle at the start
        // The first chunk after idle: its own 0.9 s of work, not the wall time since t=0.
        ThroughputPoint p = rates.feed(poll("prefill", 1.0, 512, 0.9));
        QVERIFY(p.prefill && p.prefill->startsSegment);
        QVERIFY(std::abs(p.prefill->rate - 512 / 0.9) < 1e-9);
        p = rates.feed(poll("prefill", 2.0, 1024, 1.9));
        QVERIFY(p.prefill && !p.prefill->startsSegment);
        QCOMPARE(p.prefill->rate, 512.0);
        QVERIFY(!rates.feed(poll("idle", 3.0, 1024, 1.9)).prefill); // idle: no zero point
        QVERIFY(!rates.feed(poll("idle", 10.0, 1024, 1.9)).prefill);
        p = rates.feed(poll("prefill", 11.0, 1536, 2.8));
        QVERIFY(p.prefill && p.prefill->startsSegment);
        QVERIFY(std::abs(p.prefill->rate - 512 / 0.9) < 1e-9);
        // A minute of decoding (busy, but not on prefill), then a new prompt: a gap as well,
        // and the rate is the chunk's own (512 / 1.0), not 512 / 61 s.
        rates.feed(poll("decode", 12.0, 1536, 2.8, 100, 1.0));
        p = rates.feed(poll("prefill", 72.0, 2048, 3.8, 1900, 60.0));
        QVERIFY(p.prefill && p.prefill->startsSegment);
        QCOMPARE(p.prefill->rate, 512.0);

        // The chart draws two segments for a series broken once, with no zero anywhere.
        ThroughputChart chart;
        chart.addSample(1, 500, -1);
        chart.addSample(2, 510, -1);
        chart.addSample(11, 505, -1, true);
        chart.addSample(12, 499, -1);
        QCOMPARE(chart.prefillPoints(), 4);
        QCOMPARE(chart.prefillSegments(), 2);
        QCOMPARE(chart.decodePoints(), 0);
        int lines = 0;
        for (QAbstractSeries* s : chart.chart()->series()) {
            auto* line = qobject_cast<QLineSeries*>(s);
            if (!line || line->count() == 0)
                continue;
            ++lines;
            for (const QPointF& pt : line->points())
                QVERIFY(pt.y() > 0);
        }
        QCOMPARE(lines, 2);
        // The table view's model holds the same samples.
        QCOMPARE(chart.tableModel()->rowCount(), 4);
        QCOMPARE(chart.tableModel()->index(2, 1).data(Qt::UserRole).toDouble(), 505.0);
        QVERIFY(!chart.tableModel()->index(2, 2).data(Qt::UserRole).isValid());
    }

    void ticksAreRound() {
        // Smallest 1/2/5 × 10^k step with at most 6 intervals covering the value.
        auto check = [](double value, double max, double step) {
            const NiceAxis a = niceAxis(value);
            QVERIFY2(std::abs(a.max - max) < 1e-9 && std::abs(a.step - step) < 1e-9,
                     qPrintable(QStringLiteral("%1 -> %2 / %3").arg(value).arg(a.max).arg(a.step)));
        };
        check(118, 120, 20);    // 20 × 6
        check(2200, 2500, 500); // 200 would need 11 intervals
        check(50, 50, 10);
        check(500, 500, 100);
        check(6, 6, 1);
        check(0.7, 0.8, 0.2);
        check(1999, 2000, 500); // 1999/500 -> 4 intervals
        check(0, 1, 1);
        // The chart's decode axis after a 104 t/s point: 104 × 1.1 = 114.4 -> 0..120 by 20.
        ThroughputChart chart;
        chart.addSample(1, -1, 104);
        QCOMPARE(chart.decodeAxis()->max(), 120.0);
        QCOMPARE(chart.decodeAxis()->tickInterval(), 20.0);
        QCOMPARE(chart.prefillAxis()->max(), 500.0);
        QCOMPARE(chart.timeAxis()->tickInterval(), 10.0); // 0..60 s
    }

    void budgetBarCountsOnlyKv() {
        // The case: 10 MiB of weights and 1.2 MiB of scratch on ram0 with 1.5 MiB of KV
        // and a 2 MiB budget read "12.7 MiB of 2.0 MiB". Only KV (and state) count: 75 %.
        const folio::DeviceStats d = device("ram0", folio::DeviceKind::Ram, 2 * kMiB, 10 * kMiB,
                                            3 * kMiB / 2, 0, 6 * kMiB / 5);
        QCOMPARE(MemoryBars::budgetedBytes(d), 3 * kMiB / 2);
        QCOMPARE(MemoryBars::describe(d),
                 QStringLiteral("ram0 · KV 1.5 MiB of 2.0 MiB budget (75 %)"));
        folio::DeviceStats withState = d;
        withState.state = kMiB / 2; // 2.0 of 2.0 MiB
        QCOMPARE(MemoryBars::describe(withState),
                 QStringLiteral("ram0 · KV and state 2.0 MiB of 2.0 MiB budget (100 %)"));

        MemoryBars bars;
        bars.resize(404, 100); // bar from x=2, 400 px wide: 1.5 of 2 MiB = 300 px of KV
        bars.setDevices({d});
        const QImage img = bars.grab().toImage();
        const int barY = 2 + 17 + 6;
        QCOMPARE(QColor(img.pixel(150, barY)), MemoryBars::categoryColor(1)); // KV
        const QColor after(img.pixel(340, barY));                             // past the KV
        QVERIFY(after != MemoryBars::categoryColor(0) && after != MemoryBars::categoryColor(3) &&
                after != MemoryBars::categoryColor(1));
        QCOMPARE(bars.toolTipAt(QPoint(150, barY)), QStringLiteral("ram0: KV 1.5 MiB"));
        QCOMPARE(bars.toolTipAt(QPoint(402, barY)), QStringLiteral("ram0: KV RAM budget 2.0 MiB"));
        QCOMPARE(bars.toolTipAt(QPoint(150, 5)), MemoryBars::describe(d));
    }

    void folioMemoryBesideTheMachine() {
        EngineStatsQ s = poll("idle", 1, 0, 0);
        s.weightsBytes = 100 * kMiB;
        s.weightsResidentBytes = 40 * kMiB;
        s.scratchBytes = 3 * kMiB;
        s.kvBytes = 12 * kMiB;
        s.cache.devices = {
            device("ram0", folio::DeviceKind::Ram, 8 * kMiB, 100 * kMiB, 5 * kMiB, kMiB, 3 * kMiB),
            device("ram1", folio::DeviceKind::Ram, 8 * kMiB, 0, 4 * kMiB, 0, 0),
            device("disk", folio::DeviceKind::Disk, -1, 0, 20 * kMiB, 0, 0)};
        const FolioMemory m = folioMemoryOf(s);
        QCOMPARE(m.weightsMapped, 100 * kMiB);
        QCOMPARE(m.weightsResident, 40 * kMiB);
        QCOMPARE(m.kvRam, 9 * kMiB); // 5 + 4
        QCOMPARE(m.kvDisk, 20 * kMiB);
        QCOMPARE(m.state, kMiB);
        QCOMPARE(m.scratch, 3 * kMiB);
        QCOMPARE(m.kvRamBudget, 16 * kMiB);

        FolioMemoryView view;
        view.setStats(s);
        QTreeWidget* t = view.table();
        QCOMPARE(t->topLevelItemCount(), 7);
        QCOMPARE(t->topLevelItem(0)->text(1), QStringLiteral("100.0 MiB"));
        QCOMPARE(t->topLevelItem(1)->text(1), QStringLiteral("40.0 MiB"));
        QCOMPARE(t->topLevelItem(1)->text(2), QStringLiteral("40 % of the file"));
        QCOMPARE(t->topLevelItem(2)->text(1), QStringLiteral("9.0 MiB"));
        QVERIFY(t->topLevelItem(2)->text(2).contains(QStringLiteral("16.0 MiB")));
        QCOMPARE(t->topLevelItem(3)->text(1), QStringLiteral("20.0 MiB"));
        QCOMPARE(t->topLevelItem(4)->text(1), QStringLiteral("1.0 MiB"));
        QCOMPARE(t->topLevelItem(5)->text(1), QStringLiteral("3.0 MiB"));
        // This process is resident in some megabytes, surely more than 1 MiB, and the machine
        // line names itself and its three figures.
        QVERIFY(t->topLevelItem(6)->text(1).endsWith(QStringLiteral("MiB")) ||
                t->topLevelItem(6)->text(1).endsWith(QStringLiteral("GiB")));
        const QString machine = view.machineText();
        QVERIFY2(machine.contains(QStringLiteral("Machine")) &&
                     machine.contains(QStringLiteral("used")) &&
                     machine.contains(QStringLiteral("available")) &&
                     machine.contains(QStringLiteral("total")),
                 qPrintable(machine));
        QCOMPARE(t->topLevelItem(0)->text(2),
                 QStringLiteral("mapped from the file: address space"));

        // Weights copied into RAM: all resident, and the rows say so.
        s.weightsInRam = true;
        s.weightsResidentBytes = 100 * kMiB;
        QVERIFY(folioMemoryOf(s).weightsInRam);
        view.setStats(s);
        QCOMPARE(t->topLevelItem(0)->text(1), QStringLiteral("100.0 MiB"));
        QCOMPARE(t->topLevelItem(0)->text(2), QStringLiteral("copied into RAM, 2 MiB pages"));
        QCOMPARE(t->topLevelItem(1)->text(1), QStringLiteral("100.0 MiB"));
        QCOMPARE(t->topLevelItem(1)->text(2), QStringLiteral("all of it, until unloaded"));
    }

    void cancelledPrefillShowsTheCachedTokens() {
        // A 496,163-token prompt cancelled after 19,456 tokens (304 blocks of 64): the cache
        // line reports what the session holds, never the prompt's length.
        DevicesPane pane;
        EngineStatsQ s = poll("idle", 1, 19456, 190);
        s.contextLimit = 1048576;
        s.contextUsed = 19456;
        s.cache.devices = {device("ram0", folio::DeviceKind::Ram, -1, 0, 300 * kMiB, 0, 0)};
        s.cache.block_tokens = 64;
        folio::SessionBlockMap m;
        m.session = 3;
        m.tokens = 19456;
        m.blocks.resize(304);
        s.blockMap = {m};
        pane.setEngineStats(s);
        const QString text = pane.cacheText();
        QVERIFY2(text.contains(QStringLiteral("19,456 tokens cached in 1 sessions (largest "
                                              "19,456 of 1,048,576)")),
                 qPrintable(text));
        QVERIFY(!text.contains(QStringLiteral("496,163")));
        // The block map's tooltip: session, block, token range, tier.
        BlockMapView* map = pane.blockMap();
        map->resize(300, 400);
        map->setMaps(s.blockMap, 64);
        QCOMPARE(map->toolTipAt(map->cellRect(0, 2).center()),
                 QStringLiteral("session 3 · block 2 · tokens 128–191 · RAM"));
        QCOMPARE(map->toolTipAt(map->cellRect(0, 200).center()),
                 QStringLiteral("session 3 · block 200 · tokens 12,800–12,863 · RAM"));
        // The work line: 19,456 tokens in 190 s = 102 t/s, "3 min 10 s".
        QVERIFY2(pane.workText().contains(QStringLiteral("read 19,456 prompt tokens in 3 min 10 s "
                                                         "of work (102 t/s)")),
                 qPrintable(pane.workText()));
    }

    void theCacheLineCountsWhatTheMapShows() {
        // Issue #48 §11: "341 in RAM, 185 on disk" beside a map of "263 blocks", and "2.0 MiB of
        // KV" that left out the 1.1 MiB on disk. The map draws 263 blocks of 64 tokens (all
        // layers of a block in one cell): 150 in RAM, 100 on disk, 13 partly on disk; the pool
        // holds 526 layer blocks (2 layers): 341 in RAM, 185 on disk. Each count says what it
        // counts, and the KV total is RAM + disk.
        DevicesPane pane;
        EngineStatsQ s = poll("idle", 1, 16832, 60);
        s.contextLimit = 32768;
        s.contextUsed = 16832;
        s.kvBytes = quint64(2 * kMiB);
        s.cache.devices = {device("ram0", folio::DeviceKind::Ram, -1, 0, 2 * kMiB, 0, 0),
                           device("disk", folio::DeviceKind::Disk, -1, 0, 11 * kMiB / 10, 0, 0)};
        s.cache.block_tokens = 64;
        s.cache.blocks_ram = 341;
        s.cache.blocks_disk = 185;
        folio::SessionBlockMap m;
        m.session = 1;
        m.tokens = 16832;
        m.blocks.resize(263);
        for (int b = 0; b < 263; ++b)
            m.blocks[b].tier = b < 100   ? folio::BlockTier::Disk
                               : b < 113 ? folio::BlockTier::Mixed
                                         : folio::BlockTier::Ram;
        s.blockMap = {m};
        pane.setEngineStats(s);
        const QString text = pane.cacheText();
        QVERIFY2(text.startsWith(QStringLiteral("KV 3.1 MiB (2.0 MiB in RAM + 1.1 MiB on disk) · "
                                                "16,832 tokens cached in 1 sessions")),
                 qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("The map's 263 blocks of 64 tokens: 150 in RAM, 100 "
                                              "on disk, 13 partly on disk")),
                 qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Stored as 526 layer blocks (one per layer, shared "
                                              "ones once): 341 in RAM, 185 on disk")),
                 qPrintable(text));
        // Without a disk tier the total says it is all in RAM.
        s.cache.devices.pop_back();
        pane.setEngineStats(s);
        QVERIFY2(pane.cacheText().startsWith(QStringLiteral("KV 2.0 MiB (all in RAM) · ")),
                 qPrintable(pane.cacheText()));
    }

    void throughputTableAndAccessibleNames() {
        DevicesPane pane;
        pane.addThroughputSample(1, -1, 42);
        QVERIFY(!pane.throughputTableShown());
        auto* action = pane.findChild<QAction*>(QStringLiteral("throughputTableAction"));
        QVERIFY(action);
        QCOMPARE(action->text(), QStringLiteral("Show as table"));
        QVERIFY(pane.throughputChart()->actions().contains(action)); // the context menu
        action->trigger();
        QVERIFY(pane.throughputTableShown());
        QCOMPARE(pane.throughputTable()->model()->rowCount(), 1);
        QCOMPARE(pane.throughputTable()->model()->index(0, 2).data(Qt::UserRole).toDouble(), 42.0);
        action->trigger();
        QVERIFY(!pane.throughputTableShown());
        for (const char* name :
             {"deviceTable", "memoryBars", "throughputChart", "throughputTable", "blockMap",
              "cacheLabel", "folioMemory", "machineMemory", "modelFacts", "throughputTableButton",
              "workLabel", "machineLabel", "serverLabel", "serverStatusLabel", "serverNote",
              "remoteAnswers"}) {
            auto* w = pane.findChild<QWidget*>(QString::fromLatin1(name));
            QVERIFY2(w, name);
            QVERIFY2(!w->accessibleName().isEmpty(), name);
        }
    }

    void countersAccumulateAcrossLoads() {
        folio::EngineStatistics stats;
        stats.record_prefill(512, 5.0);
        stats.record_prefill(100, 1.0);
        stats.record_decode_step(0.5, 3); // one speculative step, three tokens
        stats.reset(1, "loading");        // a new model: the counters stay
        stats.record_decode_step(0.25, 1);
        const folio::EngineStats s = stats.snapshot();
        QCOMPARE(s.prefill_tokens_total, int64_t(612));
        QCOMPARE(s.prefill_busy_seconds, 6.0);
        QCOMPARE(s.decode_tokens_total, int64_t(4));
        QCOMPARE(s.decode_busy_seconds, 0.75);
        QVERIFY(s.snapshot_seconds >= 0);
        QTest::qWait(20);
        QVERIFY(stats.snapshot().snapshot_seconds > s.snapshot_seconds);
    }

    void residencyFromSmaps() {
        // Parsing: two mappings of the file (sum of their Rss), another file ignored.
        const char* smaps =
            "7f0000000000-7f0000100000 r--s 00000000 08:01 1234    /models/a b.gguf\n"
            "Size:               1024 kB\n"
            "Rss:                 256 kB\n"
            "Pss:                 256 kB\n"
            "7f0000100000-7f0000200000 r--p 00000000 08:01 99      /usr/lib/libx.so\n"
            "Rss:                 900 kB\n"
            "7f0000200000-7f0000300000 r--s 00100000 08:01 1234    /models/a b.gguf\n"
            "Rss:                  12 kB\n"
            "VmFlags: rd sh mr mw me ms sd\n";
        QCOMPARE(folio::mapped_resident_bytes_in(smaps, "/models/a b.gguf"), uint64_t(268 * 1024));
        QCOMPARE(folio::mapped_resident_bytes_in(smaps, "/models/c.gguf"), uint64_t(0));

        // Live: map 4 MiB of a file, touch the first 1 MiB: at least 1 MiB resident, and the
        // untouched rest not all of it (the page cache may read ahead, hence no exact figure).
        // A named file (QTemporaryFile may be unnamed until asked, and smaps shows it so).
        QFile file(folio::test::scratchDir(QStringLiteral("residency")) +
                   QStringLiteral("/weights.bin"));
        QVERIFY(file.open(QIODevice::ReadWrite | QIODevice::Truncate));
        QVERIFY(file.resize(4 * kMiB));
        void* p = mmap(nullptr, 4 * kMiB, PROT_READ, MAP_SHARED, file.handle(), 0);
        QVERIFY(p != MAP_FAILED);
        QCOMPARE(folio::mapped_resident_bytes(file.fileName().toStdString()), uint64_t(0));
        volatile unsigned sum = 0;
        for (qint64 i = 0; i < kMiB; i += 4096)
            sum = sum + static_cast<const unsigned char*>(p)[i];
        const uint64_t resident = folio::mapped_resident_bytes(file.fileName().toStdString());
        munmap(p, 4 * kMiB);
        QVERIFY2(resident >= uint64_t(kMiB), qPrintable(QString::number(resident)));
        QVERIFY2(resident <= uint64_t(4 * kMiB), qPrintable(QString::number(resident)));
        QCOMPARE(folio::mapped_resident_bytes("/nonexistent/file.gguf"), uint64_t(0));
    }
};

QTEST_MAIN(TestDevicesNumbers)
#include "test_devices_numbers.moc"
