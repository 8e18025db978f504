#pragma once
// The KV budget per cache device (RAM shards, the disk tier) as horizontal bars: the bytes the
// budget governs (KV blocks with their index keys, and recurrent state) against that budget,
// with the numbers under each bar. Model weights and scratch buffers are not in the budget
// (CacheOptions::ram_budget) and are not on these bars; the pane lists them with Folio's memory.

#include "folio/cache.h"

#include <QWidget>

#include <vector>

namespace folio::ui {

class MemoryBars : public QWidget {
    Q_OBJECT
public:
    explicit MemoryBars(QWidget* parent = nullptr);

    void setDevices(const std::vector<DeviceStats>& devices);
    const std::vector<DeviceStats>& devices() const { return devices_; }
    // The colour of each category (weights, kv, state, scratch).
    static QColor categoryColor(int category);
    // The bytes a device's budget governs: KV and recurrent state.
    static qint64 budgetedBytes(const DeviceStats& device);
    // "ram0 · KV and state 9.0 MiB of 64.0 MiB budget (14 %) · 10 blocks" for one device.
    static QString describe(const DeviceStats& device);
    // "weights", "KV", "state", "scratch".
    static QString categoryName(int category);
    // What the tooltip says at `pos` (a bar segment, the budget mark, or the device's line).
    QString toolTipAt(const QPoint& pos) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;

private:
    qint64 scale() const;
    QRectF barRect(int row) const;

    std::vector<DeviceStats> devices_;
};

} // namespace folio::ui
