#pragma once
// The Devices pane: the machine (cores, SIMD kernels); memory, named by owner: Folio's own by
// category beside the machine's (FolioMemoryView), and the KV budget per cache device (RAM
// shards, the disk tier) as bars of KV and state against that budget; prefill and decode
// throughput over time, from the engine's cumulative counters over wall time (ThroughputRates),
// as a chart or a table; the cache view (a block map per session coloured by tier, shared
// prefix blocks marked, hits/misses and bytes moved); the model's facts. Fed by the engine
// worker's stats polling at 4 Hz. In remote mode (an OpenAI-compatible server answers) the
// memory and cache groups give way to the ServerPanel: what the server reports, and the
// client-side TTFT and t/s of each answer.

#include "devices/throughput_rates.h"

#include <QWidget>

#include <QElapsedTimer>

class QAction;
class QLabel;
class QStackedWidget;
class QTableView;
class QTimer;
class QTreeWidget;

namespace folio::ui {

struct BackendStatusQ;
struct EngineStatsQ;
struct RequestStatsQ;
class BlockMapView;
class FolioMemoryView;
class ServerPanel;
class MemoryBars;
class ThroughputChart;

class DevicesPane : public QWidget {
    Q_OBJECT
public:
    explicit DevicesPane(QWidget* parent = nullptr);

    // Facts about the loaded model, shown as "key: value" lines (empty list: no model).
    void setModelFacts(const QList<QPair<QString, QString>>& facts);
    // Sets one row of the model's facts (replaced when `key` is there, else added at the end).
    void setModelFact(const QString& key, const QString& value);
    // Live figures from the engine (2-4 Hz).
    void setEngineStats(const EngineStatsQ& stats);
    // Remote mode on (with the server's URL, model id and context length if known) or off.
    void setRemoteMode(bool remote, const QString& endpoint = {}, const QString& model = {},
                       qint64 contextLength = 0);
    bool isRemoteMode() const { return remote_; }
    void setBackendStatus(const BackendStatusQ& status);
    // A finished remote answer: its client-side TTFT and t/s (table and chart).
    void addRemoteAnswer(const RequestStatsQ& stats);
    ServerPanel* serverPanel() const { return server_; }
    // Appends a throughput sample (tokens/s) to the chart (negative: no sample).
    void addThroughputSample(double seconds, double prefillTps, double decodeTps);

    MemoryBars* memoryBars() const { return bars_; }
    BlockMapView* blockMap() const { return blockMap_; }
    ThroughputChart* throughputChart() const { return chart_; }
    FolioMemoryView* folioMemory() const { return memory_; }
    // The throughput as a table (QTableView over the chart's samples) instead of the chart.
    void setThroughputTable(bool table);
    bool throughputTableShown() const;
    QTableView* throughputTable() const { return chartTable_; }
    // The cache line and the work line (tests read them).
    QString cacheText() const;
    QString workText() const;
    // "3.1 MiB (2.0 MiB in RAM + 1.1 MiB on disk)": the KV cache over both tiers.
    static QString kvTotalText(const EngineStatsQ& stats);
    // The map's blocks by tier, and the pool's layer blocks, each named for what it counts.
    static QString blockCountsText(const EngineStatsQ& stats);

private:
    // The machine's memory and the process's resident set (every 2 s).
    void refreshMemory();
    // The cache devices' table from the latest statistics.
    void refreshDevices();
    void showWork(const EngineStatsQ& stats);

    QLabel* machine_ = nullptr;
    QTreeWidget* devices_ = nullptr;
    MemoryBars* bars_ = nullptr;
    QTreeWidget* model_ = nullptr;
    ThroughputChart* chart_ = nullptr;
    QTableView* chartTable_ = nullptr;
    QStackedWidget* chartStack_ = nullptr;
    QAction* tableAction_ = nullptr;
    QLabel* work_ = nullptr;
    FolioMemoryView* memory_ = nullptr;
    BlockMapView* blockMap_ = nullptr;
    QLabel* cache_ = nullptr;
    QWidget* devicesBox_ = nullptr;
    QWidget* cacheBox_ = nullptr;
    ServerPanel* server_ = nullptr;
    bool remote_ = false;
    QTimer* timer_ = nullptr;
    QElapsedTimer clock_;
    ThroughputRates rates_;
};

} // namespace folio::ui
