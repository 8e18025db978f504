#pragma once
// The marks of an answer's checked figures in the transcript (issue #46 §2): after each figure a
// small link, "✓" verified, "⚠" on another page, "✗" not found, "?" no citation, in the
// palette's tone for it, whose tooltip quotes the page's line. Its target is
// "folio:figure/<message>/<figure>".

#include "core/chat/message_figures.h"

#include <QColor>
#include <QList>
#include <QPalette>
#include <QString>

namespace folio::ui {

// `text` with a Markdown link to the mark after each figure that still stands where it was
// found (message_figures.h), for the transcript's message `messageIndex`.
QString withFigureMarks(const QString& text, const QList<CheckedFigure>& figures, int messageIndex);

QString figureMarkUrl(int messageIndex, int figure);
bool isFigureMarkUrl(const QString& url);
// True for a url made by figureMarkUrl, with its parts (either pointer may be null).
bool figureMarkFromUrl(const QString& url, int* messageIndex, int* figure);

QString figureMarkGlyph(CheckedFigure::State state);
QColor figureMarkColour(const QPalette& palette, CheckedFigure::State state);
// "Verified on page 3: “Net income 401 457 512”"; `documentTitle` is named when the answer
// cites more than one document (`documentCount`).
QString figureMarkToolTip(const CheckedFigure& figure, const QString& documentTitle,
                          int documentCount);

} // namespace folio::ui
