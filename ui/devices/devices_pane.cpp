#include "devices/devices_pane.h"

#include "backend/engine_stats_q.h"
#include "backend/engine_worker_types.h"
#include "backend/kernel_path_text.h"
#include "core/pipeline/human_format.h"
#include "devices/block_map_view.h"
#include "devices/fitted_columns.h"
#include "devices/folio_memory_view.h"
#include "devices/memory_bars.h"
#include "devices/server_panel.h"
#include "devices/throughput_chart.h"
#include "folio/system_info.h"
#include "style/palette_colors.h"

#include <QAction>
#include <QGroupBox>
#include <QGuiApplication>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QScrollArea>
#include <QStackedWidget>
#include <QStandardItemModel>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace folio::ui {

namespace {

QString bytesText(qint64 bytes) {
    return QLocale().formattedDataSize(bytes, 1);
}

QGroupBox* group(const QString& title, QWidget* parent) {
    auto* box = new QGroupBox(title, parent);
    new QVBoxLayout(box);
    box->layout()->setContentsMargins(4, 4, 4, 4);
    return box;
}

QString legend() {
    auto swatch = [](const QColor& c, const QString& name) {
        return QStringLiteral("<span style='color:%1'>■</span> %2").arg(c.name(), name);
    };
    return swatch(MemoryBars::categoryColor(1), QObject::tr("KV")) + QStringLiteral("  ") +
           swatch(MemoryBars::categoryColor(2), QObject::tr("state")) +
           QStringLiteral("  <span style='color:%1'>|</span> ")
               .arg(
                   style::css(style::toneText(QGuiApplication::palette(), style::Tone::Negative))) +
           QObject::tr("KV RAM budget (weights and scratch are not in it)");
}

QString tierLegend() {
    auto swatch = [](BlockTier t, const QString& name) {
        return QStringLiteral("<span style='color:%1'>■</span> %2")
            .arg(BlockMapView::tierColor(t).name(), name);
    };
    return swatch(BlockTier::Ram, QObject::tr("RAM")) + QStringLiteral("  ") +
           swatch(BlockTier::Disk, QObject::tr("disk")) + QStringLiteral("  ") +
           swatch(BlockTier::Mixed, QObject::tr("mixed")) + QStringLiteral("  ◤ ") +
           QObject::tr("shared prefix");
}

} // namespace

QString DevicesPane::kvTotalText(const EngineStatsQ& st) {
    // The RAM tier and the disk tier together (issue #48 §11: the total left the disk out).
    qint64 ram = 0, disk = 0;
    for (const DeviceStats& d : st.cache.devices)
        (d.kind == DeviceKind::Disk ? disk : ram) += d.kv + d.state;
    if (st.cache.devices.empty())
        ram = qint64(st.kvBytes);
    bool hasDisk = false;
    for (const DeviceStats& d : st.cache.devices)
        hasDisk = hasDisk || d.kind == DeviceKind::Disk;
    if (!hasDisk)
        return tr("%1 (all in RAM)").arg(bytesText(ram));
    return tr("%1 (%2 in RAM + %3 on disk)")
        .arg(bytesText(ram + disk), bytesText(ram), bytesText(disk));
}

QString DevicesPane::blockCountsText(const EngineStatsQ& st) {
    // What the map draws: one cell per block of block_tokens tokens of each session, all layers
    // together; the pool counts each layer's block (and a shared one once) — two different
    // sets, each said for what it is (issue #48 §11).
    qint64 ram = 0, disk = 0, mixed = 0;
    for (const SessionBlockMap& m : st.blockMap)
        for (const BlockCell& c : m.blocks)
            ++(c.tier == BlockTier::Ram ? ram : c.tier == BlockTier::Disk ? disk : mixed);
    QString text = tr("The map's %L1 blocks of %L2 tokens: %L3 in RAM, %L4 on disk, %L5 partly "
                      "on disk")
                       .arg(ram + disk + mixed)
                       .arg(st.cache.block_tokens)
                       .arg(ram)
                       .arg(disk)
                       .arg(mixed);
    text += QLatin1Char('\n') +
            tr("Stored as %L1 layer blocks (one per layer, shared ones once): %L2 in RAM, %L3 on "
               "disk")
                .arg(st.cache.blocks_ram + st.cache.blocks_disk)
                .arg(st.cache.blocks_ram)
                .arg(st.cache.blocks_disk);
    return text;
}

DevicesPane::DevicesPane(QWidget* parent) : QWidget(parent) {
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    outer->addWidget(scroll);
    auto* content = new QWidget(scroll);
    scroll->setWidget(content);
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(4, 4, 4, 4);

    const SystemInfo info = query_system_info();
    auto* machineBox = group(tr("Machine"), content);
    machine_ = new QLabel(machineBox);
    machine_->setObjectName(QStringLiteral("machineLabel"));
    machine_->setAccessibleName(tr("Processor"));
    machine_->setWordWrap(true);
    machine_->setText(tr("%1\n%2 logical cores · %3")
                          .arg(QString::fromStdString(info.cpu_model))
                          .arg(info.logical_cores)
                          .arg(KernelPathText::describe(info.features)));
    machineBox->layout()->addWidget(machine_);
    layout->addWidget(machineBox);

    auto* devicesBox = group(tr("Memory"), content);
    memory_ = new FolioMemoryView(devicesBox);
    devicesBox->layout()->addWidget(memory_);
    auto* budgetTitle = new QLabel(tr("<b>KV cache budget</b> per cache device"), devicesBox);
    budgetTitle->setWordWrap(true); // the pane may be 260 px wide (issue #48 §11)
    devicesBox->layout()->addWidget(budgetTitle);
    devices_ = new QTreeWidget(devicesBox);
    devices_->setObjectName(QStringLiteral("deviceTable"));
    devices_->setAccessibleName(tr("Cache devices"));
    // Three columns that fit the narrowest pane (issue #48 §11: headers were cut off); the
    // device's name says its kind ("ram0", "disk").
    devices_->setHeaderLabels({tr("Device"), tr("KV and state"), tr("Budget")});
    devices_->setRootIsDecorated(false);
    keepColumnsFitted(devices_);
    devices_->setMaximumHeight(96);
    devicesBox->layout()->addWidget(devices_);
    bars_ = new MemoryBars(devicesBox);
    bars_->setObjectName(QStringLiteral("memoryBars"));
    devicesBox->layout()->addWidget(bars_);
    auto* barLegend = new QLabel(legend(), devicesBox);
    barLegend->setTextFormat(Qt::RichText);
    barLegend->setWordWrap(true);
    devicesBox->layout()->addWidget(barLegend);
    layout->addWidget(devicesBox);
    devicesBox_ = devicesBox;

    server_ = new ServerPanel(content);
    server_->setObjectName(QStringLiteral("serverPanel"));
    server_->hide();
    layout->addWidget(server_);

    auto* chartBox = group(tr("Throughput"), content);
    chart_ = new ThroughputChart(chartBox);
    chart_->setObjectName(QStringLiteral("throughputChart"));
    chartTable_ = new QTableView(chartBox);
    chartTable_->setObjectName(QStringLiteral("throughputTable"));
    chartTable_->setAccessibleName(tr("Throughput table"));
    chartTable_->setModel(chart_->tableModel());
    chartTable_->verticalHeader()->hide();
    chartTable_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    chartTable_->setMinimumHeight(170);
    chartStack_ = new QStackedWidget(chartBox);
    chartStack_->addWidget(chart_);
    chartStack_->addWidget(chartTable_);
    tableAction_ = new QAction(tr("Show as table"), this);
    tableAction_->setObjectName(QStringLiteral("throughputTableAction"));
    tableAction_->setCheckable(true);
    connect(tableAction_, &QAction::toggled, this, &DevicesPane::setThroughputTable);
    // The same toggle in the chart's and the table's context menus and as a button.
    for (QWidget* w : {static_cast<QWidget*>(chart_), static_cast<QWidget*>(chartTable_)}) {
        w->setContextMenuPolicy(Qt::ActionsContextMenu);
        w->addAction(tableAction_);
    }
    auto* toggle = new QToolButton(chartBox);
    toggle->setObjectName(QStringLiteral("throughputTableButton"));
    toggle->setDefaultAction(tableAction_);
    toggle->setAccessibleName(tr("Show throughput as a table"));
    chartBox->layout()->addWidget(toggle);
    chartBox->layout()->addWidget(chartStack_);
    work_ = new QLabel(tr("No work yet."), chartBox);
    work_->setObjectName(QStringLiteral("workLabel"));
    work_->setAccessibleName(tr("Work since start"));
    work_->setWordWrap(true);
    chartBox->layout()->addWidget(work_);
    layout->addWidget(chartBox);

    auto* cacheBox = group(tr("KV cache"), content);
    cache_ = new QLabel(tr("Empty: no model loaded."), cacheBox);
    cache_->setObjectName(QStringLiteral("cacheLabel"));
    cache_->setAccessibleName(tr("KV cache figures"));
    cache_->setWordWrap(true);
    cacheBox->layout()->addWidget(cache_);
    blockMap_ = new BlockMapView(cacheBox);
    blockMap_->setObjectName(QStringLiteral("blockMap"));
    cacheBox->layout()->addWidget(blockMap_);
    auto* tiers = new QLabel(tierLegend(), cacheBox);
    tiers->setTextFormat(Qt::RichText);
    tiers->setWordWrap(true);
    cacheBox->layout()->addWidget(tiers);
    layout->addWidget(cacheBox);
    cacheBox_ = cacheBox;

    auto* modelBox = group(tr("Model"), content);
    model_ = new QTreeWidget(modelBox);
    model_->setObjectName(QStringLiteral("modelFacts"));
    model_->setAccessibleName(tr("Model facts"));
    model_->setHeaderLabels({tr("Fact"), tr("Value")});
    model_->setRootIsDecorated(false);
    keepColumnsFitted(model_);
    model_->setMinimumHeight(160);
    modelBox->layout()->addWidget(model_);
    layout->addWidget(modelBox, 1);

    setModelFacts({});
    clock_.start();
    refreshDevices();
    timer_ = new QTimer(this);
    connect(timer_, &QTimer::timeout, this, &DevicesPane::refreshMemory);
    timer_->start(2000);
}

void DevicesPane::setModelFacts(const QList<QPair<QString, QString>>& facts) {
    model_->clear();
    if (facts.isEmpty()) {
        new QTreeWidgetItem(model_, {tr("state"), tr("no model loaded")});
        return;
    }
    for (const auto& [key, value] : facts) {
        auto* item = new QTreeWidgetItem(model_, {key, value});
        item->setToolTip(1, value);
    }
    fitColumns(model_);
}

void DevicesPane::setModelFact(const QString& key, const QString& value) {
    for (int i = 0; i < model_->topLevelItemCount(); ++i) {
        QTreeWidgetItem* item = model_->topLevelItem(i);
        if (item->text(0) == key) {
            item->setText(1, value);
            return;
        }
    }
    new QTreeWidgetItem(model_, {key, value});
}

void DevicesPane::setThroughputTable(bool table) {
    if (tableAction_->isChecked() != table)
        tableAction_->setChecked(table); // calls back here once
    chartStack_->setCurrentWidget(table ? static_cast<QWidget*>(chartTable_) : chart_);
    if (table)
        chartTable_->scrollToBottom();
}

bool DevicesPane::throughputTableShown() const {
    return chartStack_->currentWidget() == chartTable_;
}

QString DevicesPane::cacheText() const {
    return cache_->text();
}

QString DevicesPane::workText() const {
    return work_->text();
}

void DevicesPane::setEngineStats(const EngineStatsQ& st) {
    const CacheStats& c = st.cache;
    bars_->setDevices(c.devices);
    blockMap_->setMaps(st.blockMap, c.block_tokens);
    memory_->setStats(st);
    refreshDevices();
    showWork(st);

    // Rates from the counters' deltas over the engine's clock; x is the pane's clock (remote
    // answers share the chart).
    const ThroughputPoint point = rates_.feed(st);
    if (point.prefill || point.decode)
        chart_->addSample(clock_.elapsed() / 1000.0, point.prefill ? point.prefill->rate : -1,
                          point.decode ? point.decode->rate : -1,
                          point.prefill && point.prefill->startsSegment,
                          point.decode && point.decode->startsSegment);

    if (!st.modelLoaded && c.devices.empty()) {
        cache_->setText(tr("Empty: no model loaded."));
        return;
    }
    // The tokens actually cached (a cancelled prefill keeps what it read, not the prompt).
    qint64 cached = 0;
    for (const SessionBlockMap& m : st.blockMap)
        cached += m.tokens;
    QString text = tr("KV %1 · %L2 tokens cached in %L3 sessions (largest %L4 of %L5)")
                       .arg(kvTotalText(st))
                       .arg(st.blockMap.empty() ? st.contextUsed : cached)
                       .arg(st.blockMap.size())
                       .arg(st.contextUsed)
                       .arg(st.contextLimit);
    text += QLatin1Char('\n') + blockCountsText(st);
    text += tr("\nprefix hits %L1 / misses %L2 blocks (%L3 tokens reused) · speculation "
               "acceptance %4%")
                .arg(c.hits)
                .arg(c.misses)
                .arg(st.prefixHitTokens)
                .arg(st.specAcceptance * 100, 0, 'f', 0);
    text += tr("\nmoved: %1 to disk, %2 from disk (now %3/s out, %4/s in)")
                .arg(bytesText(c.bytes_to_disk), bytesText(c.bytes_from_disk),
                     bytesText(qint64(c.to_disk_rate)), bytesText(qint64(c.from_disk_rate)));
    if (!c.warning.empty())
        text += QStringLiteral("\n⚠ ") + QString::fromStdString(c.warning);
    cache_->setText(text);
}

void DevicesPane::showWork(const EngineStatsQ& st) {
    // "read 19,456 prompt tokens in 3 min 10 s of work (102 t/s)": the counters' totals over
    // the worker's busy time, since Folio started.
    auto part = [](const QString& format, qint64 tokens, double seconds) {
        const double rate = seconds > 0 ? tokens / seconds : 0;
        return format.arg(tokens).arg(humanDuration(seconds)).arg(rate, 0, 'f', rate < 10 ? 1 : 0);
    };
    QStringList parts;
    if (st.prefillTokensTotal > 0)
        parts << part(tr("read %L1 prompt tokens in %2 of work (%L3 t/s)"), st.prefillTokensTotal,
                      st.prefillBusySeconds);
    if (st.decodeTokensTotal > 0)
        parts << part(tr("wrote %L1 tokens in %2 (%L3 t/s)"), st.decodeTokensTotal,
                      st.decodeBusySeconds);
    QString text = parts.isEmpty() ? QString() : tr("Since start: %1.").arg(parts.join(tr(", ")));
    // Fewer kernel threads than configured: other programs keep cores busy (the engine steps
    // aside rather than spin at its barriers; engine/runtime/cpu_share.h).
    if (st.modelLoaded && st.threadsInUse > 0 && st.threadsInUse < st.threadsConfigured)
        text += (text.isEmpty() ? QString() : QStringLiteral("\n")) +
                tr("Using %1 of %2 threads: other programs keep %3 CPUs busy.")
                    .arg(st.threadsInUse)
                    .arg(st.threadsConfigured)
                    .arg(st.otherCpuLoad, 0, 'f', 1);
    if (!text.isEmpty())
        work_->setText(text);
}

void DevicesPane::setRemoteMode(bool remote, const QString& endpoint, const QString& model,
                                qint64 contextLength) {
    if (remote != remote_)
        server_->clearAnswers();
    remote_ = remote;
    server_->setVisible(remote);
    devicesBox_->setVisible(!remote);
    cacheBox_->setVisible(!remote);
    if (remote)
        server_->setServer(endpoint, model, contextLength);
}

void DevicesPane::setBackendStatus(const BackendStatusQ& status) {
    if (remote_)
        server_->setStatus(status);
}

void DevicesPane::addRemoteAnswer(const RequestStatsQ& stats) {
    server_->addAnswer(stats);
    if (stats.decodeTps > 0)
        addThroughputSample(clock_.elapsed() / 1000.0, -1, stats.decodeTps);
}

void DevicesPane::addThroughputSample(double seconds, double prefillTps, double decodeTps) {
    chart_->addSample(seconds, prefillTps, decodeTps);
}

void DevicesPane::refreshMemory() {
    memory_->refreshMachine();
}

void DevicesPane::refreshDevices() {
    devices_->clear();
    for (const DeviceStats& d : bars_->devices()) {
        auto* item = new QTreeWidgetItem(
            devices_, {QString::fromStdString(d.name), bytesText(MemoryBars::budgetedBytes(d)),
                       d.budget >= 0 ? bytesText(d.budget) : tr("unlimited")});
        for (int c = 0; c < 3; ++c)
            item->setToolTip(c, MemoryBars::describe(d));
    }
    if (bars_->devices().empty())
        new QTreeWidgetItem(devices_, {tr("none"), QString(), tr("no model loaded")});
    fitColumns(devices_);
}

} // namespace folio::ui
