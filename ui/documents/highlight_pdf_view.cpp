#include "documents/highlight_pdf_view.h"

#include <QGuiApplication>
#include <QPainter>
#include <QPdfDocument>
#include <QPdfPageNavigator>
#include <QScreen>
#include <QScrollBar>

namespace folio::ui {

namespace {

// Boxes of one line joined (QtPdf gives one per character, OCR one per word): a box that shares
// most of its height with the one before it and starts within a line's height of its end
// becomes part of it.
QList<QRectF> joinedByLine(const QList<QRectF>& boxes) {
    QList<QRectF> out;
    for (const QRectF& box : boxes) {
        if (box.isEmpty())
            continue;
        if (!out.isEmpty()) {
            QRectF& last = out.last();
            const qreal shared =
                std::min(last.bottom(), box.bottom()) - std::max(last.top(), box.top());
            const qreal height = std::min(last.height(), box.height());
            const qreal gap = box.left() - last.right();
            if (shared > height / 2 && gap < std::max(last.height(), box.height()) &&
                box.right() > last.left()) {
                last = last.united(box);
                continue;
            }
        }
        out << box;
    }
    return out;
}

} // namespace

HighlightPdfView::HighlightPdfView(QWidget* parent) : QPdfView(parent) {
    connect(this, &QPdfView::documentChanged, this, [this] { clearHighlight(); });
}

void HighlightPdfView::setHighlight(int page, const QList<QRectF>& boxes) {
    boxes_ = page < 0 ? QList<QRectF>() : joinedByLine(boxes);
    page_ = boxes_.isEmpty() ? -1 : page;
    viewport()->update();
}

void HighlightPdfView::clearHighlight() {
    setHighlight(-1, {});
}

QSizeF HighlightPdfView::pageSizeInView(int page) const {
    // Pixels per point as QPdfView takes them: the primary screen's logical DPI over 72.
    const QScreen* screen = QGuiApplication::primaryScreen();
    const qreal perPoint = (screen ? screen->logicalDotsPerInch() : 96.0) / 72.0;
    const QSizeF points = document()->pagePointSize(page);
    const QMargins m = documentMargins();
    QSize size;
    switch (zoomMode()) {
    case ZoomMode::Custom:
        size = QSizeF(points * perPoint * zoomFactor()).toSize();
        break;
    case ZoomMode::FitToWidth: {
        size = QSizeF(points * perPoint).toSize();
        if (size.width() > 0)
            size *= qreal(viewport()->width() - m.left() - m.right()) / qreal(size.width());
        break;
    }
    case ZoomMode::FitInView: {
        const QSize room = viewport()->size() + QSize(-m.left() - m.right(), -pageSpacing());
        size = QSizeF(points * perPoint).toSize().scaled(room, Qt::KeepAspectRatio);
        break;
    }
    }
    return QSizeF(size);
}

QRectF HighlightPdfView::pageRectInViewport(int page) const {
    const QPdfDocument* doc = document();
    if (!doc || doc->status() != QPdfDocument::Status::Ready || page < 0 ||
        page >= doc->pageCount())
        return {};
    const bool single = pageMode() == PageMode::SinglePage;
    const int current = pageNavigator()->currentPage();
    if (single && page != current)
        return {};
    const int first = single ? current : 0;
    const int last = single ? current : doc->pageCount() - 1;
    const QMargins m = documentMargins();
    qreal widest = 0;
    for (int p = first; p <= last; ++p)
        widest = std::max(widest, pageSizeInView(p).width());
    const qreal total = widest + m.left() + m.right();
    qreal y = m.top();
    for (int p = first; p < page; ++p)
        y += pageSizeInView(p).height() + pageSpacing();
    const QSizeF size = pageSizeInView(page);
    const qreal x = int((std::max<qreal>(total, viewport()->width()) - size.width()) / 2);
    return QRectF(QPointF(x - horizontalScrollBar()->value(), y - verticalScrollBar()->value()),
                  size);
}

QList<QRectF> HighlightPdfView::highlightRectsInViewport() const {
    QList<QRectF> out;
    const QRectF pageRect = pageRectInViewport(page_);
    if (pageRect.isEmpty() || !document())
        return out;
    const QSizeF points = document()->pagePointSize(page_);
    if (points.isEmpty())
        return out;
    const qreal sx = pageRect.width() / points.width();
    const qreal sy = pageRect.height() / points.height();
    for (const QRectF& box : boxes_)
        out << QRectF(pageRect.left() + box.left() * sx, pageRect.top() + box.top() * sy,
                      box.width() * sx, box.height() * sy);
    return out;
}

void HighlightPdfView::scrollToHighlight() {
    const QList<QRectF> rects = highlightRectsInViewport();
    if (rects.isEmpty())
        return;
    const int target =
        verticalScrollBar()->value() + int(rects.first().top()) - viewport()->height() / 3;
    verticalScrollBar()->setValue(target);
}

void HighlightPdfView::paintEvent(QPaintEvent* event) {
    QPdfView::paintEvent(event);
    const QList<QRectF> rects = highlightRectsInViewport();
    if (rects.isEmpty())
        return;
    QPainter painter(viewport());
    painter.setRenderHint(QPainter::Antialiasing);
    QColor fill = palette().color(QPalette::Highlight);
    QColor outline = fill;
    fill.setAlpha(90);
    outline.setAlpha(220);
    painter.setPen(QPen(outline, 1.5));
    painter.setBrush(fill);
    for (const QRectF& r : rects)
        painter.drawRoundedRect(r.adjusted(-2, -2, 2, 2), 2, 2);
}

} // namespace folio::ui
