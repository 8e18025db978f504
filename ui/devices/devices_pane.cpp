#include "devices/devices_pane.h"

#include "backend/engine_stats_q.h"
#include "backend/engine_worker_types.h"
#include "devices/block_map_view.h"
#include "devices/memory_bars.h"
#include "devices/server_panel.h"
#include "devices/throughput_chart.h"
#include "folio/system_info.h"

#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QScrollArea>
#include <QTimer>
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
    return swatch(MemoryBars::categoryColor(0), QObject::tr("weights")) + QStringLiteral("  ") +
           swatch(MemoryBars::categoryColor(1), QObject::tr("KV")) + QStringLiteral("  ") +
           swatch(MemoryBars::categoryColor(2), QObject::tr("state")) + QStringLiteral("  ") +
           swatch(MemoryBars::categoryColor(3), QObject::tr("scratch")) +
           QStringLiteral("  <span style='color:#c0392b'>|</span> ") + QObject::tr("budget");
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
    machine_->setWordWrap(true);
    machine_->setText(tr("%1\n%2 logical cores · %3")
                          .arg(QString::fromStdString(info.cpu_model))
                          .arg(info.logical_cores)
                          .arg(QString::fromStdString(describe_kernel_path(info.features))));
    machineBox->layout()->addWidget(machine_);
    layout->addWidget(machineBox);

    auto* devicesBox = group(tr("Memory devices"), content);
    devices_ = new QTreeWidget(devicesBox);
    devices_->setObjectName(QStringLiteral("deviceTable"));
    devices_->setHeaderLabels({tr("Device"), tr("Kind"), tr("Used"), tr("Budget")});
    devices_->setRootIsDecorated(false);
    devices_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    devices_->setMaximumHeight(96);
    devicesBox->layout()->addWidget(devices_);
    bars_ = new MemoryBars(devicesBox);
    bars_->setObjectName(QStringLiteral("memoryBars"));
    devicesBox->layout()->addWidget(bars_);
    auto* barLegend = new QLabel(legend(), devicesBox);
    barLegend->setTextFormat(Qt::RichText);
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
    chartBox->layout()->addWidget(chart_);
    layout->addWidget(chartBox);

    auto* cacheBox = group(tr("KV cache"), content);
    cache_ = new QLabel(tr("Empty: no model loaded."), cacheBox);
    cache_->setObjectName(QStringLiteral("cacheLabel"));
    cache_->setWordWrap(true);
    cacheBox->layout()->addWidget(cache_);
    blockMap_ = new BlockMapView(cacheBox);
    blockMap_->setObjectName(QStringLiteral("blockMap"));
    cacheBox->layout()->addWidget(blockMap_);
    auto* tiers = new QLabel(tierLegend(), cacheBox);
    tiers->setTextFormat(Qt::RichText);
    cacheBox->layout()->addWidget(tiers);
    layout->addWidget(cacheBox);
    cacheBox_ = cacheBox;

    auto* modelBox = group(tr("Model"), content);
    model_ = new QTreeWidget(modelBox);
    model_->setObjectName(QStringLiteral("modelFacts"));
    model_->setHeaderLabels({tr("Fact"), tr("Value")});
    model_->setRootIsDecorated(false);
    model_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    model_->setMinimumHeight(160);
    modelBox->layout()->addWidget(model_);
    layout->addWidget(modelBox, 1);

    setModelFacts({});
    clock_.start();
    refreshMemory();
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
    for (const auto& [key, value] : facts)
        new QTreeWidgetItem(model_, {key, value});
}

void DevicesPane::setEngineStats(const EngineStatsQ& st) {
    kvBytes_ = st.kvBytes;
    weightsBytes_ = st.weightsBytes;
    const CacheStats& c = st.cache;
    haveCacheDevices_ = !c.devices.empty();
    bars_->setDevices(c.devices);
    blockMap_->setMaps(st.blockMap);
    if (haveCacheDevices_)
        refreshMemory();
    if (!st.modelLoaded && !haveCacheDevices_) {
        cache_->setText(tr("Empty: no model loaded."));
        return;
    }
    QString text = tr("%1 of KV · context %L2 / %L3 tokens · blocks: %L4 in RAM, %L5 on disk")
                       .arg(bytesText(qint64(st.kvBytes)))
                       .arg(st.contextUsed)
                       .arg(st.contextLimit)
                       .arg(c.blocks_ram)
                       .arg(c.blocks_disk);
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

    const double now = clock_.elapsed() / 1000.0;
    if (st.state == QLatin1String("prefill")) {
        // The last request's figure is stale while a new prompt is read: measure the cache's
        // growth between two polls instead.
        double rate = st.lastPrefillTps;
        if (lastState_ == QLatin1String("prefill") && st.contextUsed > lastContextUsed_ &&
            now > lastSampleSeconds_)
            rate = (st.contextUsed - lastContextUsed_) / (now - lastSampleSeconds_);
        if (rate > 0) // no figure yet: no point rather than a misleading zero
            addThroughputSample(now, rate, -1);
    } else if (st.state == QLatin1String("decode")) {
        const double rate = st.windowDecodeTps > 0 ? st.windowDecodeTps : st.lastDecodeTps;
        if (rate > 0)
            addThroughputSample(now, -1, rate);
    }
    lastState_ = st.state;
    lastContextUsed_ = st.contextUsed;
    lastSampleSeconds_ = now;
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
    devices_->clear();
    if (haveCacheDevices_) {
        for (const DeviceStats& d : bars_->devices()) {
            const qint64 used = d.weights + d.kv + d.state + d.scratch;
            auto* item = new QTreeWidgetItem(
                devices_,
                {QString::fromStdString(d.name), d.kind == DeviceKind::Ram ? tr("ram") : tr("disk"),
                 bytesText(used), d.budget >= 0 ? bytesText(d.budget) : tr("unlimited")});
            item->setToolTip(0, MemoryBars::describe(d));
        }
        return;
    }
    const SystemInfo info = query_system_info();
    for (const MemoryNode& node : info.memory_nodes) {
        const quint64 used =
            node.total_bytes > node.free_bytes ? node.total_bytes - node.free_bytes : 0;
        auto* item = new QTreeWidgetItem(devices_, {tr("RAM node %1").arg(node.id), tr("ram"),
                                                    bytesText(qint64(used)),
                                                    bytesText(qint64(node.total_bytes))});
        if (weightsBytes_ || kvBytes_)
            item->setToolTip(
                0, tr("model weights (mmapped) %1 · KV cache %2")
                       .arg(bytesText(qint64(weightsBytes_)), bytesText(qint64(kvBytes_))));
    }
    new QTreeWidgetItem(devices_,
                        {tr("Disk cache"), tr("disk"), bytesText(0), tr("not configured")});
}

} // namespace folio::ui
