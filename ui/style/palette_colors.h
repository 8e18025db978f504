#pragma once
// Colours from the palette (issue #25: dark themes). Nothing in the workbench names a fixed
// colour for text or backgrounds: text takes QPalette roles, and the few colours that carry a
// meaning (an error is red, a user's name is the link colour) are a hue pulled towards the
// palette's Base until it reads on it. followPalette() applies them again when the system theme
// (the application palette) changes.

#include <QColor>
#include <QPalette>
#include <QString>

#include <functional>

class QWidget;

namespace folio::ui::style {

enum class Tone { Accent, Positive, Warning, Negative };

// WCAG 2 relative luminance (0 black … 1 white) and contrast ratio (1 … 21).
double luminance(const QColor& colour);
double contrastRatio(const QColor& a, const QColor& b);
// True when the palette's Base is darker than its Text (a dark theme).
bool isDark(const QPalette& palette);
// `a` mixed with `b` (t = 0: a, 1: b).
QColor mix(const QColor& a, const QColor& b, double t);
// `colour` moved towards white (on a dark background) or black until its contrast against
// `background` reaches `ratio` (4.5: WCAG AA for text).
QColor readable(const QColor& colour, const QColor& background, double ratio = 4.5);

// The palette's Link colour, readable on Base (a plain dark QPalette keeps Qt's dark blue).
QColor link(const QPalette& palette);
// Text of a tone (names, errors, warnings), readable on Base.
QColor toneText(const QPalette& palette, Tone tone);
// A tint of Base towards the tone: chips, banners, highlighted lines; Text reads on it.
QColor toneBackground(const QPalette& palette, Tone tone);
QColor toneBorder(const QPalette& palette, Tone tone);
// Secondary text (times, stats, notes): Text halfway to Base, still readable (3:1).
QColor mutedText(const QPalette& palette);
// A placeholder ("Ask about the documents…"): Text halfway to Base, so it never reads as typed
// text (some dark themes set PlaceholderText to Text), and still readable (3:1) on Base.
QColor placeholderText(const QPalette& palette);
// Background of code blocks and tool calls: Base a little towards Text.
QColor codeBackground(const QPalette& palette);

// "#rrggbb" for HTML and style sheets.
inline QString css(const QColor& colour) {
    return colour.name(QColor::HexRgb);
}
// A QLabel style sheet: tinted background, border and text of `tone` (banners, chips).
QString labelStyle(const QPalette& palette, Tone tone, int radius = 4,
                   const QString& padding = QStringLiteral("6px"));

// Calls `apply` now, and again (queued, once the widgets have their new palette) whenever the
// application palette changes: the system theme switched between light and dark.
void followPalette(QWidget* widget, std::function<void()> apply);

} // namespace folio::ui::style
