#include "devices/memory_bars.h"

#include <QLocale>
#include <QPainter>

#include <algorithm>
#include <array>

namespace folio::ui {

namespace {

constexpr int kRowHeight = 50;
constexpr int kBarHeight = 12;

QString bytes(int64_t n) {
    return QLocale().formattedDataSize(n, 1);
}

std::array<int64_t, 4> parts(const DeviceStats& d) {
    return {d.weights, d.kv, d.state, d.scratch};
}

} // namespace

MemoryBars::MemoryBars(QWidget* parent) : QWidget(parent) {
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
}

QColor MemoryBars::categoryColor(int category) {
    static const std::array<QColor, 4> colors = {QColor(0x4a, 0x78, 0xc2), QColor(0x3d, 0xa5, 0x5d),
                                                 QColor(0x9b, 0x59, 0xb6),
                                                 QColor(0xe6, 0x9a, 0x28)};
    return colors[std::clamp(category, 0, 3)];
}

QString MemoryBars::describe(const DeviceStats& d) {
    QString text = QString::fromStdString(d.name) + QStringLiteral(" · ") +
                   bytes(d.weights + d.kv + d.state + d.scratch);
    text += d.budget >= 0 ? tr(" of %1").arg(bytes(d.budget)) : tr(" (no budget)");
    if (d.blocks > 0)
        text += tr(" · %L1 blocks").arg(d.blocks);
    return text;
}

QString MemoryBars::categoryName(int category) {
    const std::array<QString, 4> names = {tr("weights"), tr("KV"), tr("state"), tr("scratch")};
    return names[std::clamp(category, 0, 3)];
}

void MemoryBars::setDevices(const std::vector<DeviceStats>& devices) {
    devices_ = devices;
    setMinimumHeight(sizeHint().height());
    update();
}

QSize MemoryBars::sizeHint() const {
    return {300, std::max<int>(1, int(devices_.size())) * kRowHeight + 16};
}

QSize MemoryBars::minimumSizeHint() const {
    return {160, sizeHint().height()};
}

void MemoryBars::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const int width = this->width() - 4;
    if (devices_.empty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("No cache devices reported yet"));
        return;
    }
    // One scale for all rows: the largest budget or use, so the bars compare.
    int64_t scale = 1;
    for (const DeviceStats& d : devices_) {
        int64_t used = 0;
        for (int64_t v : parts(d))
            used += v;
        scale = std::max({scale, used, d.budget});
    }
    int y = 2;
    for (const DeviceStats& d : devices_) {
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(QRect(2, y, width, 16), Qt::AlignLeft | Qt::AlignVCenter, describe(d));
        const QRectF bar(2, y + 17, width, kBarHeight);
        p.setPen(Qt::NoPen);
        p.setBrush(palette().color(QPalette::AlternateBase));
        p.drawRect(bar);
        double x = bar.left();
        const auto values = parts(d);
        for (int i = 0; i < 4; ++i) {
            const double w = bar.width() * double(values[i]) / double(scale);
            if (w <= 0)
                continue;
            p.setBrush(categoryColor(i));
            p.drawRect(QRectF(x, bar.top(), std::max(1.0, w), bar.height()));
            x += w;
        }
        if (d.budget >= 0) {
            const double bx = bar.left() + bar.width() * double(d.budget) / double(scale);
            p.setPen(QPen(QColor(0xc0, 0x39, 0x2b), 2));
            p.drawLine(QPointF(bx, bar.top() - 2), QPointF(bx, bar.bottom() + 2));
        }
        // The numbers under the bar, in the colours of their segments.
        int x2 = 2;
        QFont small = font();
        small.setPointSizeF(small.pointSizeF() * 0.9);
        p.setFont(small);
        for (int i = 0; i < 4; ++i) {
            if (values[i] <= 0)
                continue;
            const QString label = QStringLiteral("%1 %2  ").arg(categoryName(i), bytes(values[i]));
            p.setPen(categoryColor(i).darker(130));
            p.drawText(QRect(x2, y + 31, width - x2, 16), Qt::AlignLeft | Qt::AlignVCenter, label);
            x2 += p.fontMetrics().horizontalAdvance(label);
        }
        p.setFont(font());
        y += kRowHeight;
    }
}

} // namespace folio::ui
