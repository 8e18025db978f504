#include "core/documents/document.h"

#include <QCryptographicHash>

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

QList<int> Document::pagesNeedingOcr() const {
    QList<int> pages;
    for (int i = 0; i < pageOrigins.size(); ++i)
        if (pageOrigins[i].needsOcr())
            pages << i;
    return pages;
}

QList<int> Document::pagesWithSource(PageOrigin::Source source) const {
    QList<int> pages;
    for (int i = 0; i < pageOrigins.size(); ++i)
        if (pageOrigins[i].source == source)
            pages << i;
    return pages;
}

QString Document::textKey() const {
    const QList<int> ocr = pagesWithSource(PageOrigin::Source::Ocr);
    if (ocr.isEmpty())
        return fingerprint;
    QCryptographicHash hash(QCryptographicHash::Sha256);
    for (int page : ocr) {
        hash.addData(QByteArray::number(page) + ':');
        hash.addData(pageTexts.value(page).toUtf8());
        hash.addData(QByteArrayLiteral("\n"));
    }
    return fingerprint + QStringLiteral("+ocr:") +
           QString::fromLatin1(hash.result().toHex().left(16));
}

} // namespace folio::ui
