#pragma once
// The cache view: one row of cells per session, a cell per KV block, coloured by tier (RAM,
// disk, mixed); blocks shared with another session or the prefix cache carry a dark corner.

#include "folio/cache.h"

#include <QWidget>

#include <vector>

namespace folio::ui {

class BlockMapView : public QWidget {
    Q_OBJECT
public:
    explicit BlockMapView(QWidget* parent = nullptr);

    void setMaps(const std::vector<SessionBlockMap>& maps);
    const std::vector<SessionBlockMap>& maps() const { return maps_; }
    static QColor tierColor(BlockTier tier);
    // Where block `block` of row `row` is painted (for tests).
    QRect cellRect(int row, int block) const;

    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    int columns() const;
    int rowHeight(const SessionBlockMap& map) const;

    std::vector<SessionBlockMap> maps_;
};

} // namespace folio::ui
