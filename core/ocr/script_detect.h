#pragma once
// Which Tesseract languages read a page, from the script of text already known: the page's own
// first reading (eng+chi_sim reads both scripts) or the rest of the document's text layer.
// Chinese (Han) characters decide; everything else is read as English.

#include <QString>

namespace folio::ocr {

// Han ideographs and CJK punctuation among the letters, digits and CJK punctuation of `text`;
// 0 when it has none of them.
double cjkShare(const QString& text);

// The languages for text with this script mix: "chi_sim" mostly Han (at least 60 %), "eng"
// almost none (under 2 %), else "eng+chi_sim".
QString languagesForText(const QString& text);

// Tesseract puts spaces between Chinese characters; the page's text does not have them. Removes
// the spaces (not the line breaks) between two CJK characters.
QString joinCjkSpaces(const QString& text);

// A user's language setting checked: "auto" or Tesseract codes joined by '+' (letters, digits,
// '_'); returns false with a message otherwise.
bool validLanguageSpec(const QString& spec, QString* error);

} // namespace folio::ocr
