#pragma once
// The cache view: one row of cells per session, a cell per KV block, coloured by tier (RAM,
// disk, mixed); blocks shared with another session or the prefix cache carry a dark corner.
// Hovering a block names its session, tier and token range.

#include "folio/cache.h"

#include <QWidget>

#include <vector>

namespace folio::ui {

class BlockMapView : public QWidget {
    Q_OBJECT
public:
    explicit BlockMapView(QWidget* parent = nullptr);

    // `blockTokens`: tokens per block (CacheStats::block_tokens), for the tooltips' ranges.
    void setMaps(const std::vector<SessionBlockMap>& maps, int blockTokens = 64);
    const std::vector<SessionBlockMap>& maps() const { return maps_; }
    static QColor tierColor(BlockTier tier);
    // Where block `block` of row `row` is painted (for tests).
    QRect cellRect(int row, int block) const;

    // What the tooltip says at `pos`: "session 1 · block 7 · tokens 448–511 · RAM", or the
    // session's line, or nothing.
    QString toolTipAt(const QPoint& pos) const;
    static QString tierName(BlockTier tier);

    QSize sizeHint() const override;

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    int columns() const;
    int rowHeight(const SessionBlockMap& map) const;

    std::vector<SessionBlockMap> maps_;
    int blockTokens_ = 64;
};

} // namespace folio::ui
