#include "core/pipeline/token_counter.h"

#include <utility>

namespace folio::ui {

namespace {
constexpr qint64 kTokensPerTurn = 8;
constexpr qint64 kTokensPerImage = 256;

bool isCjk(char32_t c) {
    return (c >= 0x3040 && c <= 0x30ff) || (c >= 0x3400 && c <= 0x4dbf) ||
           (c >= 0x4e00 && c <= 0x9fff) || (c >= 0xac00 && c <= 0xd7af) ||
           (c >= 0xf900 && c <= 0xfaff) || (c >= 0x20000 && c <= 0x2fa1f);
}
} // namespace

TokenCounter::TokenCounter(QString tokenizerId, TextFn text, PromptFn prompt)
    : id_(std::move(tokenizerId)), text_(std::move(text)), prompt_(std::move(prompt)) {}

qint64 TokenCounter::text(const QString& text) const {
    if (text_) {
        const qint64 n = text_(text);
        if (n >= 0)
            return n;
    }
    return estimateText(text);
}

qint64 TokenCounter::prompt(const QList<ChatTurn>& turns) const {
    if (prompt_) {
        const qint64 n = prompt_(turns);
        if (n >= 0)
            return n;
    }
    return estimatePrompt(turns);
}

qint64 TokenCounter::estimateText(const QString& text) {
    qint64 cjk = 0, other = 0;
    for (char32_t c : text.toUcs4()) {
        if (isCjk(c))
            ++cjk;
        else
            ++other;
    }
    return cjk + (other + 3) / 4;
}

qint64 TokenCounter::estimatePrompt(const QList<ChatTurn>& turns) {
    qint64 n = 0;
    for (const ChatTurn& t : turns)
        n += estimateText(t.content) + kTokensPerTurn + kTokensPerImage * t.images.size();
    return n;
}

} // namespace folio::ui
