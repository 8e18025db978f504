#include "devices/block_map_view.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>

namespace folio::ui {

namespace {
constexpr int kCell = 9;   // pixels per block, including a 1 px gap
constexpr int kLabel = 16; // label line above each session's cells
constexpr int kRowGap = 4;
constexpr int kMaxRows = 8; // cell rows per session before the map is cut
} // namespace

BlockMapView::BlockMapView(QWidget* parent) : QWidget(parent) {
    setMinimumHeight(40);
    setAccessibleName(tr("KV cache block map"));
    setAccessibleDescription(tr("One cell per cached block of each session, coloured by tier: "
                                "RAM, disk or mixed; hover a cell for its tokens."));
}

QString BlockMapView::tierName(BlockTier tier) {
    switch (tier) {
    case BlockTier::Ram:
        return tr("RAM");
    case BlockTier::Disk:
        return tr("disk");
    case BlockTier::Mixed:
        return tr("partly RAM, partly disk");
    }
    return {};
}

QString BlockMapView::toolTipAt(const QPoint& pos) const {
    const int cols = columns();
    for (int r = 0; r < int(maps_.size()); ++r) {
        const SessionBlockMap& m = maps_[r];
        const QRect first = cellRect(r, 0);
        if (pos.y() >= first.top() - kLabel && pos.y() < first.top())
            return tr("session %1: %L2 tokens cached in %L3 blocks of %L4 tokens")
                .arg(m.session)
                .arg(m.tokens)
                .arg(m.blocks.size())
                .arg(blockTokens_);
        const int limit = std::min<int>(int(m.blocks.size()), cols * kMaxRows);
        for (int b = 0; b < limit; ++b) {
            if (!cellRect(r, b).adjusted(0, 0, 1, 1).contains(pos))
                continue;
            const qint64 from = qint64(b) * blockTokens_;
            const qint64 to = std::min<qint64>(from + blockTokens_, m.tokens) - 1;
            QString text = tr("session %1 · block %L2 · tokens %L3–%L4 · %5")
                               .arg(m.session)
                               .arg(b)
                               .arg(from)
                               .arg(std::max(from, to))
                               .arg(tierName(m.blocks[b].tier));
            if (m.blocks[b].shared)
                text += tr(" · shared with another session or the prefix cache");
            return text;
        }
    }
    return {};
}

bool BlockMapView::event(QEvent* e) {
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

QColor BlockMapView::tierColor(BlockTier tier) {
    switch (tier) {
    case BlockTier::Ram:
        return QColor(0x3d, 0xa5, 0x5d);
    case BlockTier::Disk:
        return QColor(0x8e, 0x44, 0xad);
    case BlockTier::Mixed:
        return QColor(0xe6, 0x9a, 0x28);
    }
    return Qt::gray;
}

void BlockMapView::setMaps(const std::vector<SessionBlockMap>& maps, int blockTokens) {
    maps_ = maps;
    blockTokens_ = std::max(1, blockTokens);
    setMinimumHeight(sizeHint().height());
    update();
}

int BlockMapView::columns() const {
    return std::max(1, (width() - 4) / kCell);
}

int BlockMapView::rowHeight(const SessionBlockMap& map) const {
    const int rows = std::min<int>(kMaxRows, int((map.blocks.size() + columns() - 1) / columns()));
    return kLabel + std::max(1, rows) * kCell + kRowGap;
}

void BlockMapView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    setMinimumHeight(sizeHint().height()); // rows wrap differently at another width
}

QSize BlockMapView::sizeHint() const {
    int h = 4;
    for (const SessionBlockMap& m : maps_)
        h += rowHeight(m);
    return {300, std::max(40, h)};
}

QRect BlockMapView::cellRect(int row, int block) const {
    int y = 2;
    for (int r = 0; r < row && r < int(maps_.size()); ++r)
        y += rowHeight(maps_[r]);
    const int cols = columns();
    return {2 + (block % cols) * kCell, y + kLabel + (block / cols) * kCell, kCell - 1, kCell - 1};
}

void BlockMapView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    if (maps_.empty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("No cached blocks"));
        return;
    }
    const int cols = columns();
    for (int r = 0; r < int(maps_.size()); ++r) {
        const SessionBlockMap& m = maps_[r];
        const QRect first = cellRect(r, 0);
        p.setPen(palette().color(QPalette::WindowText));
        int shared = 0;
        for (const BlockCell& c : m.blocks)
            shared += c.shared ? 1 : 0;
        p.drawText(QRect(2, first.top() - kLabel, width() - 4, kLabel),
                   Qt::AlignLeft | Qt::AlignVCenter,
                   tr("session %1 · %L2 tokens · %3 blocks (%4 shared)")
                       .arg(m.session)
                       .arg(m.tokens)
                       .arg(m.blocks.size())
                       .arg(shared));
        const int limit = std::min<int>(int(m.blocks.size()), cols * kMaxRows);
        for (int b = 0; b < limit; ++b) {
            const QRect cell = cellRect(r, b);
            p.fillRect(cell, tierColor(m.blocks[b].tier));
            if (m.blocks[b].shared) {
                // A dark triangle in the top-left corner marks a shared prefix block.
                const QPoint tri[3] = {cell.topLeft(), cell.topLeft() + QPoint(5, 0),
                                       cell.topLeft() + QPoint(0, 5)};
                p.setPen(Qt::NoPen);
                p.setBrush(palette().color(QPalette::WindowText));
                p.drawPolygon(tri, 3);
            }
        }
    }
}

} // namespace folio::ui
