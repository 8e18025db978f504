#pragma once
// The Documents pane's PDF view with a highlight over a match (issue #46 §2: a checked figure
// opened on its page; Find's match): boxes in PDF points on one page, drawn over the rendered
// page in the palette's highlight colour (translucent, with an opaque outline) wherever the view
// has laid the page out. Qt 6.4's QPdfView draws no selection of its own and does not say where
// it put a page, so the page's place is worked out here from the layout QPdfView documents for
// its modes (pages stacked top to bottom with documentMargins around and pageSpacing between,
// centred; FitToWidth scales each page to the viewport's width less the margins).

#include <QList>
#include <QPdfView>
#include <QRectF>

namespace folio::ui {

class HighlightPdfView : public QPdfView {
    Q_OBJECT
public:
    explicit HighlightPdfView(QWidget* parent = nullptr);

    // Boxes on page `page` (0-based), in points from the page's top left (those of one line
    // joined into one); no boxes: no highlight.
    void setHighlight(int page, const QList<QRectF>& boxes);
    void clearHighlight();
    int highlightPage() const { return page_; }
    const QList<QRectF>& highlightBoxes() const { return boxes_; }

    // Where page `page` is drawn, in the viewport's coordinates (empty when there is no such page
    // or no document); the highlight boxes there.
    QRectF pageRectInViewport(int page) const;
    QList<QRectF> highlightRectsInViewport() const;
    // Scrolls so the highlight's first box is in view (a third down the viewport).
    void scrollToHighlight();

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QSizeF pageSizeInView(int page) const;

    int page_ = -1;
    QList<QRectF> boxes_;
};

} // namespace folio::ui
