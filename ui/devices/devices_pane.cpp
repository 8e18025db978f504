#include "devices/devices_pane.h"

#include "engine/engine_worker.h"
#include "folio/system_info.h"

#include <QChart>
#include <QChartView>
#include <QDateTime>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineSeries>
#include <QLocale>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QValueAxis>

namespace folio::ui {

namespace {

QString bytesText(quint64 bytes) {
    return QLocale().formattedDataSize(qint64(bytes), 1);
}

QGroupBox* group(const QString& title, QWidget* parent) {
    auto* box = new QGroupBox(title, parent);
    new QVBoxLayout(box);
    box->layout()->setContentsMargins(4, 4, 4, 4);
    return box;
}

} // namespace

DevicesPane::DevicesPane(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);

    const SystemInfo info = query_system_info();
    auto* machineBox = group(tr("Machine"), this);
    machine_ = new QLabel(machineBox);
    machine_->setObjectName(QStringLiteral("machineLabel"));
    machine_->setWordWrap(true);
    machine_->setText(tr("%1\n%2 logical cores · %3")
                          .arg(QString::fromStdString(info.cpu_model))
                          .arg(info.logical_cores)
                          .arg(QString::fromStdString(describe_kernel_path(info.features))));
    machineBox->layout()->addWidget(machine_);
    layout->addWidget(machineBox);

    auto* devicesBox = group(tr("Memory devices"), this);
    devices_ = new QTreeWidget(devicesBox);
    devices_->setObjectName(QStringLiteral("deviceTable"));
    devices_->setHeaderLabels({tr("Device"), tr("Kind"), tr("Used"), tr("Budget")});
    devices_->setRootIsDecorated(false);
    devices_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    devicesBox->layout()->addWidget(devices_);
    layout->addWidget(devicesBox);

    auto* modelBox = group(tr("Model"), this);
    model_ = new QTreeWidget(modelBox);
    model_->setObjectName(QStringLiteral("modelFacts"));
    model_->setHeaderLabels({tr("Fact"), tr("Value")});
    model_->setRootIsDecorated(false);
    model_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    modelBox->layout()->addWidget(model_);
    layout->addWidget(modelBox);

    auto* chartBox = group(tr("Throughput"), this);
    throughput_ = new QLineSeries;
    throughput_->setName(tr("decode tokens/s"));
    auto* chart = new QChart;
    chart->addSeries(throughput_);
    axisX_ = new QValueAxis;
    axisX_->setRange(0, 60);
    axisX_->setTitleText(tr("s"));
    axisX_->setLabelFormat(QStringLiteral("%d"));
    axisY_ = new QValueAxis;
    axisY_->setRange(0, 50);
    axisY_->setLabelFormat(QStringLiteral("%d"));
    chart->addAxis(axisX_, Qt::AlignBottom);
    chart->addAxis(axisY_, Qt::AlignLeft);
    throughput_->attachAxis(axisX_);
    throughput_->attachAxis(axisY_);
    chart->legend()->setVisible(false);
    chart->setMargins(QMargins(2, 2, 2, 2));
    chart->setTitle(tr("No generation yet"));
    auto* view = new QChartView(chart, chartBox);
    view->setObjectName(QStringLiteral("throughputChart"));
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumHeight(150);
    chartBox->layout()->addWidget(view);
    layout->addWidget(chartBox, 1);

    auto* cacheBox = group(tr("KV cache"), this);
    cache_ = new QLabel(tr("Empty: no model loaded."), cacheBox);
    cache_->setObjectName(QStringLiteral("cacheLabel"));
    cache_->setWordWrap(true);
    cacheBox->layout()->addWidget(cache_);
    layout->addWidget(cacheBox);

    setModelFacts({});
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
    if (!st.modelLoaded) {
        cache_->setText(tr("Empty: no model loaded."));
        return;
    }
    cache_->setText(tr("%1 of KV in RAM · context %L2 / %L3 tokens · prefix hits %L4 tokens · "
                       "speculation acceptance %5%")
                        .arg(bytesText(st.kvBytes))
                        .arg(st.contextUsed)
                        .arg(st.contextLimit)
                        .arg(st.prefixHitTokens)
                        .arg(st.specAcceptance * 100, 0, 'f', 0));
    if (st.state == QLatin1String("decode") && st.windowDecodeTps > 0) {
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        if (startMs_ == 0)
            startMs_ = now;
        addThroughputSample((now - startMs_) / 1000.0, st.windowDecodeTps);
    }
}

void DevicesPane::addThroughputSample(double seconds, double tokensPerSecond) {
    throughput_->append(seconds, tokensPerSecond);
    axisX_->setMax(qMax(axisX_->max(), seconds));
    axisY_->setMax(qMax(axisY_->max(), tokensPerSecond * 1.2));
    throughput_->chart()->setTitle(QString());
}

void DevicesPane::refreshMemory() {
    const SystemInfo info = query_system_info();
    devices_->clear();
    for (const MemoryNode& node : info.memory_nodes) {
        const quint64 used =
            node.total_bytes > node.free_bytes ? node.total_bytes - node.free_bytes : 0;
        auto* item = new QTreeWidgetItem(devices_, {tr("RAM node %1").arg(node.id), tr("ram"),
                                                    bytesText(used), bytesText(node.total_bytes)});
        if (weightsBytes_ || kvBytes_)
            item->setToolTip(0, tr("model weights (mmapped) %1 · KV cache %2")
                                    .arg(bytesText(weightsBytes_), bytesText(kvBytes_)));
    }
    new QTreeWidgetItem(devices_,
                        {tr("Disk cache"), tr("disk"), bytesText(0), tr("not configured")});
}

} // namespace folio::ui
