#include "core/ocr/page_classify.h"

#include <QList>

namespace folio::ocr {

namespace {

bool isTextCharacter(char32_t c) {
    if (c == 0xFFFD || (c >= 0xE000 && c <= 0xF8FF)) // replacement, private use
        return false;
    return QChar::isLetterOrNumber(c);
}

} // namespace

TextLayer classifyTextLayer(const QString& text, QSizeF pagePoints) {
    qsizetype letters = 0, visible = 0;
    for (const char32_t c : text.toUcs4()) {
        if (QChar::isSpace(c) || QChar::category(c) == QChar::Other_Control)
            continue;
        ++visible;
        if (isTextCharacter(c))
            ++letters;
    }
    if (letters == 0)
        return TextLayer::Missing;
    if (!pagePoints.isValid() || pagePoints.isEmpty())
        pagePoints = QSizeF(595.28, 841.89);
    const double squareInches = pagePoints.width() * pagePoints.height() / (72.0 * 72.0);
    if (double(letters) < kMinLettersPerSquareInch * squareInches)
        return TextLayer::Junk;
    if (double(letters) < kMinLetterShare * double(visible))
        return TextLayer::Junk;
    return TextLayer::Good;
}

const char* textLayerName(TextLayer layer) {
    switch (layer) {
    case TextLayer::Good:
        return "good";
    case TextLayer::Missing:
        return "missing";
    case TextLayer::Junk:
        return "junk";
    }
    return "?";
}

} // namespace folio::ocr
