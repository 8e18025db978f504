#pragma once
// Whose memory is whose. Folio's own, by category: the model file mapped and how much of it is
// resident (the OS pages a mapping in and out; /proc/self/smaps, every few seconds), the KV cache
// in RAM and on the disk tier, recurrent state, scratch buffers, and the whole process's
// resident set. Beside it, the machine's: used by all programs (page cache not counted),
// available and total (/proc/meminfo). The machine's figures move with every other program;
// Folio's do not.

#include <QWidget>

class QLabel;
class QTreeWidget;

namespace folio::ui {

struct EngineStatsQ;

// Folio's bytes by category, from one statistics snapshot.
struct FolioMemory {
    qint64 weightsMapped = 0, weightsResident = 0;
    bool weightsInRam = false; // copied into RAM (2 MiB pages) instead of mapped
    qint64 kvRam = 0, kvDisk = 0, state = 0, scratch = 0;
    qint64 kvRamBudget = -1; // over all RAM shards; < 0: none
    bool haveDiskTier = false;
};
FolioMemory folioMemoryOf(const EngineStatsQ& stats);

class FolioMemoryView : public QWidget {
    Q_OBJECT
public:
    explicit FolioMemoryView(QWidget* parent = nullptr);

    void setStats(const EngineStatsQ& stats);
    void setNoModel();
    // Re-reads the machine's memory and this process's resident set.
    void refreshMachine();

    QTreeWidget* table() const { return table_; }
    QString machineText() const;

private:
    void setRow(int row, const QString& size, const QString& note);

    QTreeWidget* table_ = nullptr;
    QLabel* machine_ = nullptr;
};

} // namespace folio::ui
