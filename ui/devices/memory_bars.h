#pragma once
// Memory per device (RAM shards, the disk tier) as stacked horizontal bars: weights, KV blocks,
// recurrent state and scratch, with the byte counts and the budget.

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
    // The colour of each category, in painting order (weights, kv, state, scratch).
    static QColor categoryColor(int category);
    // "ram0 · 12.0 MiB of 64.0 MiB · 10 blocks" for one device.
    static QString describe(const DeviceStats& device);
    // "weights", "KV", "state", "scratch".
    static QString categoryName(int category);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    std::vector<DeviceStats> devices_;
};

} // namespace folio::ui
