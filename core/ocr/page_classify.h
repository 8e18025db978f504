#pragma once
// Which pages need OCR: a page without a text layer, or with a junk one. A scanner's PDF often
// carries a few stray glyphs (a page number stamped on, an invisible layer of symbols from a
// broken font); such a layer is not the page's text. The rule is by area, so a cover page with
// a short title keeps its text layer while an A4 page with a dozen characters is read again.

#include <QSizeF>
#include <QString>

namespace folio::ocr {

enum class TextLayer {
    Good,    // letters enough for the page's area: use the text layer
    Missing, // no letters or digits at all
    Junk,    // almost no letters for the area, or mostly symbols that are not text
};

// Letters and digits (any script, CJK included) per square inch below which a text layer is
// junk: 0.1 is 9 characters on an A4 page; a printed page holds 20 to 40 per square inch.
inline constexpr double kMinLettersPerSquareInch = 0.1;
// A layer whose visible characters are less than this share letters and digits (the rest
// symbols, replacement characters, private-use glyphs) is junk.
inline constexpr double kMinLetterShare = 0.4;

// `text`: the page's text layer (QPdfDocument::getAllText); `pagePoints`: the page's size in
// points (1/72 inch). An invalid or empty size counts as A4.
TextLayer classifyTextLayer(const QString& text, QSizeF pagePoints);

inline bool needsOcr(const QString& text, QSizeF pagePoints) {
    return classifyTextLayer(text, pagePoints) != TextLayer::Good;
}

const char* textLayerName(TextLayer layer);

} // namespace folio::ocr
