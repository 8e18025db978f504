#include "devices/memory_bars.h"

#include "style/palette_colors.h"

#include <QHelpEvent>
#include <QLocale>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <array>
#include <cmath>

namespace folio::ui {

namespace {

constexpr int kRowHeight = 50;
constexpr int kBarHeight = 12;
constexpr int kBudgetCategories[] = {1, 2}; // KV, state: what CacheOptions::ram_budget covers

QString bytes(int64_t n) {
    return QLocale().formattedDataSize(n, 1);
}

int64_t part(const DeviceStats& d, int category) {
    const std::array<int64_t, 4> values = {d.weights, d.kv, d.state, d.scratch};
    return values[std::clamp(category, 0, 3)];
}

} // namespace

MemoryBars::MemoryBars(QWidget* parent) : QWidget(parent) {
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    setAccessibleName(tr("KV cache budget bars"));
    setAccessibleDescription(tr("Per cache device, the KV cache and recurrent state against the "
                                "KV RAM budget; model weights and scratch are not counted."));
}

QColor MemoryBars::categoryColor(int category) {
    static const std::array<QColor, 4> colors = {QColor(0x4a, 0x78, 0xc2), QColor(0x3d, 0xa5, 0x5d),
                                                 QColor(0x9b, 0x59, 0xb6),
                                                 QColor(0xe6, 0x9a, 0x28)};
    return colors[std::clamp(category, 0, 3)];
}

qint64 MemoryBars::budgetedBytes(const DeviceStats& d) {
    return d.kv + d.state;
}

QString MemoryBars::describe(const DeviceStats& d) {
    const QString what = d.state > 0 ? tr("KV and state %1") : tr("KV %1");
    QString text =
        QString::fromStdString(d.name) + QStringLiteral(" · ") + what.arg(bytes(budgetedBytes(d)));
    if (d.budget > 0)
        text += tr(" of %1 budget (%L2 %)")
                    .arg(bytes(d.budget))
                    .arg(qRound(100.0 * double(budgetedBytes(d)) / double(d.budget)));
    else if (d.budget == 0)
        text += tr(" (budget 0)");
    else
        text += tr(" (no budget)");
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

qint64 MemoryBars::scale() const {
    // One scale for all rows: the largest budget or budgeted use, so the bars compare.
    qint64 s = 1;
    for (const DeviceStats& d : devices_)
        s = std::max({s, budgetedBytes(d), qint64(d.budget)});
    return s;
}

QRectF MemoryBars::barRect(int row) const {
    return {2, 2.0 + row * kRowHeight + 17, double(width() - 4), double(kBarHeight)};
}

QString MemoryBars::toolTipAt(const QPoint& pos) const {
    const int row = (pos.y() - 2) / kRowHeight;
    if (pos.y() < 2 || row >= int(devices_.size()))
        return {};
    const DeviceStats& d = devices_[row];
    const QRectF bar = barRect(row);
    const double perByte = bar.width() / double(scale());
    if (pos.y() >= bar.top() - 2 && pos.y() <= bar.bottom() + 2) {
        if (d.budget >= 0 && std::abs(pos.x() - (bar.left() + perByte * double(d.budget))) <= 3)
            return tr("%1: KV RAM budget %2").arg(QString::fromStdString(d.name), bytes(d.budget));
        double x = bar.left();
        for (int c : kBudgetCategories) {
            const double w = perByte * double(part(d, c));
            if (w > 0 && pos.x() >= x && pos.x() < x + std::max(1.0, w))
                return tr("%1: %2 %3")
                    .arg(QString::fromStdString(d.name), categoryName(c), bytes(part(d, c)));
            x += w;
        }
    }
    return describe(d);
}

bool MemoryBars::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        const QString text = toolTipAt(help->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(e);
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
    const double perByte = barRect(0).width() / double(scale());
    for (int row = 0; row < int(devices_.size()); ++row) {
        const DeviceStats& d = devices_[row];
        const int y = 2 + row * kRowHeight;
        p.setPen(palette().color(QPalette::WindowText));
        // Elided in a narrow pane (whole in the tooltip), never cut mid-word.
        p.drawText(QRect(2, y, width, 16), Qt::AlignLeft | Qt::AlignVCenter,
                   fontMetrics().elidedText(describe(d), Qt::ElideRight, width));
        const QRectF bar = barRect(row);
        p.setPen(Qt::NoPen);
        p.setBrush(palette().color(QPalette::AlternateBase));
        p.drawRect(bar);
        double x = bar.left();
        for (int c : kBudgetCategories) {
            const double w = perByte * double(part(d, c));
            if (w <= 0)
                continue;
            p.setBrush(categoryColor(c));
            p.drawRect(QRectF(x, bar.top(), std::max(1.0, w), bar.height()));
            x += w;
        }
        if (d.budget >= 0) {
            const double bx = bar.left() + perByte * double(d.budget);
            p.setPen(QPen(style::toneText(palette(), style::Tone::Negative), 2));
            p.drawLine(QPointF(bx, bar.top() - 2), QPointF(bx, bar.bottom() + 2));
        }
        // The numbers under the bar, in the colours of their segments.
        int x2 = 2;
        QFont small = font();
        small.setPointSizeF(small.pointSizeF() * 0.9);
        p.setFont(small);
        for (int c : kBudgetCategories) {
            if (part(d, c) <= 0)
                continue;
            const QString label = QStringLiteral("%1 %2  ").arg(categoryName(c), bytes(part(d, c)));
            p.setPen(categoryColor(c).darker(130));
            p.drawText(QRect(x2, y + 31, width - x2, 16), Qt::AlignLeft | Qt::AlignVCenter, label);
            x2 += p.fontMetrics().horizontalAdvance(label);
        }
        p.setFont(font());
    }
}

} // namespace folio::ui
