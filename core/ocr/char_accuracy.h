#pragma once
// How well OCR read a page whose source text is known: character accuracy, 1 - (edit distance /
// characters of the source), after a normalisation that ignores what a reader of the text does
// not see: whitespace (line breaks fall where the page wraps, and Chinese has no spaces) and the
// width of punctuation and digits (NFKC: '，' and ',' are the same mark).

#include <QString>

namespace folio::ocr {

// Whitespace removed, NFKC applied.
QString normalizedForAccuracy(const QString& text);

// Levenshtein distance between the code points of `a` and `b`.
qsizetype editDistance(const QString& a, const QString& b);

// In [0, 1]; 1 when `read` is `source` after normalisation; 0 for an empty source.
double characterAccuracy(const QString& source, const QString& read);

} // namespace folio::ocr
