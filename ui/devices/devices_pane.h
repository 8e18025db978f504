#pragma once
// The Devices pane: the machine (cores, SIMD kernels), one row per memory device with its
// budget and live use, the model's facts, a throughput chart and the KV cache map. Values come
// from the engine (folio::query_system_info now; engine Stats once the engine service lands).

#include <QWidget>

class QChartView;
class QLabel;
class QLineSeries;
class QTimer;
class QTreeWidget;
class QValueAxis;

namespace folio::ui {

struct EngineStatsQ;

class DevicesPane : public QWidget {
    Q_OBJECT
public:
    explicit DevicesPane(QWidget* parent = nullptr);

    // Facts about the loaded model, shown as "key: value" lines (empty list: no model).
    void setModelFacts(const QList<QPair<QString, QString>>& facts);
    // Live figures from the engine (2-4 Hz).
    void setEngineStats(const EngineStatsQ& stats);
    // Appends a throughput sample (tokens/s) to the chart.
    void addThroughputSample(double seconds, double tokensPerSecond);

private:
    void refreshMemory();

    QLabel* machine_ = nullptr;
    QTreeWidget* devices_ = nullptr;
    QTreeWidget* model_ = nullptr;
    QLabel* cache_ = nullptr;
    QLineSeries* throughput_ = nullptr;
    QValueAxis* axisX_ = nullptr;
    QValueAxis* axisY_ = nullptr;
    QTimer* timer_ = nullptr;
    qint64 startMs_ = 0;
    quint64 kvBytes_ = 0;
    quint64 weightsBytes_ = 0;
};

} // namespace folio::ui
