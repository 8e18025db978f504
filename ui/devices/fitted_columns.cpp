// A tree's columns shared out over its width; see fitted_columns.h.
#include "devices/fitted_columns.h"

#include <QEvent>
#include <QHeaderView>
#include <QObject>
#include <QTreeWidget>

#include <algorithm>

namespace folio::ui {

namespace {

constexpr int kPadding = 16; // a cell's margins

class Refitter : public QObject {
public:
    explicit Refitter(QTreeWidget* tree) : QObject(tree), tree_(tree) {}
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() == QEvent::Resize)
            fitColumns(tree_);
        return QObject::eventFilter(watched, event);
    }

private:
    QTreeWidget* tree_;
};

} // namespace

void keepColumnsFitted(QTreeWidget* tree) {
    tree->header()->setSectionResizeMode(QHeaderView::Interactive);
    tree->header()->setStretchLastSection(false);
    tree->header()->setMinimumSectionSize(24);
    tree->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    tree->setTextElideMode(Qt::ElideRight);
    tree->viewport()->installEventFilter(new Refitter(tree));
    fitColumns(tree);
}

void fitColumns(QTreeWidget* tree) {
    const int columns = tree->columnCount();
    if (columns < 1)
        return;
    const QFontMetrics rowFont(tree->font()), headerFont(tree->header()->font());
    auto headerWidth = [&](int column) {
        return headerFont.horizontalAdvance(tree->headerItem()->text(column)) + kPadding;
    };
    auto widest = [&](int column) {
        int w = headerWidth(column);
        for (int r = 0; r < tree->topLevelItemCount(); ++r)
            w = std::max(w,
                         rowFont.horizontalAdvance(tree->topLevelItem(r)->text(column)) + kPadding);
        return w;
    };
    const int width = tree->viewport()->width();
    const int last = columns - 1;
    // The columns before the last: their contents, shrunk (never below their headers) when
    // together they would leave the last less than a quarter of the width.
    const int budget = std::max(0, width - std::max(width / 4, headerWidth(last)));
    QList<int> widths;
    int used = 0;
    for (int c = 0; c < last; ++c) {
        widths << widest(c);
        used += widths.last();
    }
    for (int c = last - 1; c >= 0 && used > budget; --c) { // the widest give way first
        int widestColumn = 0;
        for (int k = 1; k < last; ++k)
            if (widths[k] - headerWidth(k) > widths[widestColumn] - headerWidth(widestColumn))
                widestColumn = k;
        const int give = std::min(used - budget, widths[widestColumn] - headerWidth(widestColumn));
        if (give <= 0)
            break;
        widths[widestColumn] -= give;
        used -= give;
    }
    for (int c = 0; c < last; ++c)
        tree->setColumnWidth(c, widths[c]);
    tree->setColumnWidth(last, std::max(headerWidth(last), width - used));
}

} // namespace folio::ui
