#include "window_fit.h"

#include <algorithm>

namespace folio::ui {

QRect firstRunFrame(const QRect& available, const QSize& preferred, const QMargins& frame) {
    const QSize wanted(preferred.width() + frame.left() + frame.right(),
                       preferred.height() + frame.top() + frame.bottom());
    const QSize size = wanted.boundedTo(available.size());
    QRect rect(QPoint(0, 0), size);
    rect.moveCenter(available.center());
    return fitInside(rect, available);
}

QRect fitInside(const QRect& frameRect, const QRect& available) {
    QRect rect(frameRect.topLeft(), frameRect.size().boundedTo(available.size()));
    rect.moveLeft(std::clamp(rect.left(), available.left(), available.right() - rect.width() + 1));
    rect.moveTop(std::clamp(rect.top(), available.top(), available.bottom() - rect.height() + 1));
    return rect;
}

} // namespace folio::ui
