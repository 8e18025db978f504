#pragma once
// Sizing the main window from the screen it is on (issue #25): the first run takes the preferred
// size where it fits and as much of the available area as there is where it does not (a
// 1366×768 laptop, 150 % scaling); a saved geometry from a larger screen is shrunk and moved
// back inside the available area.

#include <QMargins>
#include <QRect>
#include <QSize>

namespace folio::ui {

// The window's frame rectangle (title bar and borders included) for a first run on a screen
// whose available geometry is `available`: `preferred` (client size) plus `frame` where it
// fits, else the whole available area; centred.
QRect firstRunFrame(const QRect& available, const QSize& preferred, const QMargins& frame);

// `frameRect` moved and, where it is larger, shrunk so that it lies inside `available`.
QRect fitInside(const QRect& frameRect, const QRect& available);

} // namespace folio::ui
