#include "core/documents/ocr_find.h"

#include <QRegularExpression>

namespace folio::ui {

namespace {

constexpr qsizetype kContextChars = 30;

// The character offset in `text` where each of `words` starts, found in order (-1: not found).
QList<qsizetype> wordOffsets(const QString& text, const QList<ocr::OcrWord>& words) {
    QList<qsizetype> offsets;
    offsets.reserve(words.size());
    qsizetype from = 0;
    for (const ocr::OcrWord& w : words) {
        const qsizetype at = w.text.isEmpty() ? -1 : text.indexOf(w.text, from);
        offsets << at;
        if (at >= 0)
            from = at + w.text.size();
    }
    return offsets;
}

} // namespace

QList<OcrMatch> findInOcrText(const Document& document, const QString& needle) {
    QList<OcrMatch> out;
    const QString trimmed = needle.simplified();
    if (trimmed.isEmpty())
        return out;
    QString pattern;
    for (const QString& part : trimmed.split(QLatin1Char(' ')))
        pattern += (pattern.isEmpty() ? QString() : QStringLiteral("\\s+")) +
                   QRegularExpression::escape(part);
    const QRegularExpression re(pattern, QRegularExpression::CaseInsensitiveOption);
    for (int page : document.pagesWithSource(PageOrigin::Source::Ocr)) {
        const QString& text = document.pageTexts.at(page);
        const QList<ocr::OcrWord> words = document.pageWords.value(page);
        QList<qsizetype> offsets;
        for (auto it = re.globalMatch(text); it.hasNext();) {
            const QRegularExpressionMatch m = it.next();
            OcrMatch match;
            match.page = page;
            if (offsets.isEmpty() && !words.isEmpty())
                offsets = wordOffsets(text, words);
            // The word that holds the match's start, and every word the match covers.
            for (qsizetype w = 0; w < words.size(); ++w) {
                const qsizetype at = offsets.value(w, -1);
                if (at < 0)
                    continue;
                if (at <= m.capturedStart() && m.capturedStart() < at + words[w].text.size())
                    match.box = words[w].box;
                if (at < m.capturedEnd() && m.capturedStart() < at + words[w].text.size() &&
                    !words[w].box.isEmpty())
                    match.boxes << words[w].box;
            }
            const qsizetype from = std::max<qsizetype>(0, m.capturedStart() - kContextChars);
            const qsizetype to = std::min(text.size(), m.capturedEnd() + kContextChars);
            match.context = (from > 0 ? QStringLiteral("…") : QString()) +
                            text.mid(from, to - from).simplified() +
                            (to < text.size() ? QStringLiteral("…") : QString());
            out << match;
        }
    }
    return out;
}

} // namespace folio::ui
