#include "documents/document.h"

namespace folio::ui {

namespace {
constexpr int kImageTokens = 256; // typical MoonViT cost of a chart at ~450 px
constexpr int kMinTextChars = 16;
} // namespace

int Document::estimatedTokens() const {
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
        tokens += latin / 4 + wide + 4; // + the "[page N]" marker
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
