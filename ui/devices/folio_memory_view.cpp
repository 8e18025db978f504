#include "devices/folio_memory_view.h"

#include "backend/engine_stats_q.h"
#include "devices/fitted_columns.h"
#include "folio/system_info.h"

#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace folio::ui {

namespace {

enum Row { Mapped, Resident, KvRam, KvDisk, State, Scratch, Process, RowCount };

QString bytesText(qint64 bytes) {
    return QLocale().formattedDataSize(bytes, 1);
}

// VmRSS of /proc/self/status (proc(5)): every page of this process in RAM; -1 when unknown.
qint64 processResidentBytes() {
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray& line : f.readAll().split('\n'))
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').value(0).toLongLong() * 1024;
    return -1;
}

} // namespace

FolioMemory folioMemoryOf(const EngineStatsQ& s) {
    FolioMemory m;
    m.weightsMapped = qint64(s.weightsBytes);
    m.weightsResident = qint64(s.weightsResidentBytes);
    m.weightsInRam = s.weightsInRam;
    m.scratch = qint64(s.scratchBytes);
    if (s.cache.devices.empty()) {
        m.kvRam = qint64(s.kvBytes);
        return m;
    }
    for (const DeviceStats& d : s.cache.devices) {
        if (d.kind == DeviceKind::Disk) {
            m.kvDisk += d.kv;
            m.haveDiskTier = true;
            continue;
        }
        m.kvRam += d.kv;
        m.state += d.state;
        if (d.budget >= 0)
            m.kvRamBudget = (m.kvRamBudget < 0 ? 0 : m.kvRamBudget) + d.budget;
    }
    return m;
}

FolioMemoryView::FolioMemoryView(QWidget* parent) : QWidget(parent) {
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(0, 0, 0, 0);
    auto* title = new QLabel(tr("<b>Folio</b> (this program)"), this);
    v->addWidget(title);
    table_ = new QTreeWidget(this);
    table_->setObjectName(QStringLiteral("folioMemory"));
    table_->setAccessibleName(tr("Folio's memory by category"));
    table_->setHeaderLabels({tr("What"), tr("Size"), tr("Note")});
    table_->setRootIsDecorated(false);
    // The note takes what the pane leaves (elided, whole in its tooltip): no horizontal scroll
    // bar over the rows, no header cut off (issue #48 §11).
    keepColumnsFitted(table_);
    const QStringList names = {tr("Model weights"),       tr("Model weights, resident"),
                               tr("KV cache in RAM"),     tr("KV cache on disk"),
                               tr("Recurrent state"),     tr("Scratch buffers"),
                               tr("Folio process in RAM")};
    const QStringList tips = {
        tr("The model file's size. Mapped read-only, it is address space, not RAM; copied into "
           "RAM (Settings, Model weights), it stays in memory and is safe from the file "
           "changing."),
        tr("The model's bytes in RAM now: all of a copy; of a mapped file, the pages the system "
           "holds (measured every few seconds; it may drop them and read them again)."),
        tr("Attention blocks (and index keys) held in RAM; this is what the KV RAM budget "
           "limits, with the recurrent state."),
        tr("Blocks moved to the offload folder."),
        tr("Recurrent (linear attention) states and their checkpoints."),
        tr("Evaluation buffers of the sessions."),
        tr("Resident set of the whole process (all of the above that is in RAM, plus the "
           "application itself).")};
    for (int r = 0; r < RowCount; ++r) {
        auto* item = new QTreeWidgetItem(table_, {names[r], QString(), QString()});
        item->setToolTip(0, tips[r]);
    }
    // Tall enough for every row, no taller (the pane scrolls, the table should not).
    const int rowHeight = std::max(table_->sizeHintForRow(0), fontMetrics().height() + 2);
    table_->setFixedHeight(table_->header()->sizeHint().height() + rowHeight * RowCount +
                           2 * table_->frameWidth() + 2);
    v->addWidget(table_);
    machine_ = new QLabel(this);
    machine_->setObjectName(QStringLiteral("machineMemory"));
    machine_->setAccessibleName(tr("Machine memory"));
    machine_->setWordWrap(true);
    v->addWidget(machine_);
    setNoModel();
    refreshMachine();
}

void FolioMemoryView::setRow(int row, const QString& size, const QString& note) {
    QTreeWidgetItem* item = table_->topLevelItem(row);
    item->setText(1, size);
    item->setText(2, note);
    item->setToolTip(2, note); // the pane is narrow: the note may be cut
    fitColumns(table_);
}

void FolioMemoryView::setNoModel() {
    for (int r = Mapped; r < Process; ++r)
        setRow(r, bytesText(0), r == Mapped ? tr("no model loaded") : QString());
}

void FolioMemoryView::setStats(const EngineStatsQ& s) {
    if (!s.modelLoaded && s.cache.devices.empty()) {
        setNoModel();
        return;
    }
    const FolioMemory m = folioMemoryOf(s);
    setRow(Mapped, bytesText(m.weightsMapped),
           m.weightsInRam ? tr("copied into RAM, 2 MiB pages")
                          : tr("mapped from the file: address space"));
    if (m.weightsInRam)
        setRow(Resident, bytesText(m.weightsResident), tr("all of it, until unloaded"));
    else if (m.weightsResident > 0 && m.weightsMapped > 0)
        setRow(Resident, bytesText(m.weightsResident),
               tr("%L1 % of the file").arg(qRound(100.0 * m.weightsResident / m.weightsMapped)));
    else
        setRow(Resident, tr("—"), tr("not measured yet"));
    setRow(KvRam, bytesText(m.kvRam),
           m.kvRamBudget >= 0 ? tr("KV RAM budget %1 (with state)").arg(bytesText(m.kvRamBudget))
                              : tr("no KV RAM budget"));
    setRow(KvDisk, bytesText(m.kvDisk),
           m.haveDiskTier ? QString() : tr("no disk tier (no offload folder)"));
    setRow(State, bytesText(m.state), QString());
    setRow(Scratch, bytesText(m.scratch), QString());
}

void FolioMemoryView::refreshMachine() {
    const qint64 rss = processResidentBytes();
    setRow(Process, rss >= 0 ? bytesText(rss) : tr("unknown"), tr("resident set (VmRSS)"));
    const SystemInfo info = query_system_info();
    const qint64 total = qint64(info.total_ram_bytes);
    const qint64 available = qint64(info.available_ram_bytes);
    machine_->setText(tr("<b>Machine</b> (all programs): used %1 · available %2 · total %3. "
                         "Used leaves out the page cache; it moves with every program.")
                          .arg(bytesText(std::max<qint64>(0, total - available)),
                               bytesText(available), bytesText(total)));
}

QString FolioMemoryView::machineText() const {
    return machine_->text();
}

} // namespace folio::ui
