#include "core/documents/document.h"

namespace folio::ui {

namespace {
constexpr int kImageTokens = 256; // typical MoonViT cost of a chart at ~450 px
constexpr int kMinTextChars = 16;
} // namespace

int Document::estimatedTokens(double latinCharsPerToken) const {
    const double ratio = latinCharsPerToken > 0.1 ? latinCharsPerToken : 4.0;
    if (kind == Kind::Image)
        return kImageTokens;
    qint64 tokens = 0;
    for (const QString& text : pageTexts) {
        qint64 latin = 0, wide = 0;
        for (QChar c : text) {
            if (c.unicode() >= 0x2E80)
                ++wide;
            else
                ++latin;
        }
        tokens += qint64(latin / ratio) + wide + 4; // + the "[page N]" marker
        if (text.trimmed().size() < kMinTextChars)
            tokens += kImageTokens;
    }
    return static_cast<int>(qMin<qint64>(tokens, INT_MAX));
}

int Document::pagesWithoutText() const {
    int n = 0;
    for (const QString& text : pageTexts)
        if (text.trimmed().size() < kMinTextChars)
            ++n;
    return n;
}

} // namespace folio::ui
