#include "core/documents/page_text_boxes.h"

#include <QPdfDocument>
#include <QPdfSelection>
#include <QRegularExpression>

namespace folio::ui {

namespace {

// `needle` as a pattern: white space runs match any white space; around a number's separators
// ("," "." between digits) white space may stand where the needle has none.
QRegularExpression patternOf(const QString& needle) {
    const QString trimmed = needle.simplified();
    QString pattern;
    for (qsizetype i = 0; i < trimmed.size(); ++i) {
        const QChar c = trimmed[i];
        if (c == QLatin1Char(' ')) {
            pattern += QStringLiteral("\\s+");
            continue;
        }
        pattern += QRegularExpression::escape(QString(c));
        const bool separator = (c == QLatin1Char(',') || c == QLatin1Char('.')) && i > 0 &&
                               trimmed[i - 1].isDigit() && i + 1 < trimmed.size() &&
                               trimmed[i + 1].isDigit();
        if (separator)
            pattern += QStringLiteral("\\s*");
    }
    return QRegularExpression(pattern, QRegularExpression::CaseInsensitiveOption);
}

} // namespace

QList<QRectF> wordBoxesOfMatch(const QList<ocr::OcrWord>& words, const QString& needle) {
    if (needle.simplified().isEmpty() || words.isEmpty())
        return {};
    // The words' text joined by spaces, each word's place in it kept.
    QString text;
    QList<qsizetype> starts;
    for (const ocr::OcrWord& w : words) {
        if (!text.isEmpty())
            text += QLatin1Char(' ');
        starts << text.size();
        text += w.text;
    }
    const QRegularExpressionMatch m = patternOf(needle).match(text);
    if (!m.hasMatch())
        return {};
    QList<QRectF> boxes;
    for (qsizetype k = 0; k < words.size(); ++k) {
        const qsizetype from = starts[k];
        const qsizetype to = from + words[k].text.size();
        if (to > m.capturedStart() && from < m.capturedEnd() && !words[k].box.isEmpty())
            boxes << words[k].box;
    }
    return boxes;
}

QList<QRectF> textBoxesOnPage(QPdfDocument& pdf, const Document& document, int page,
                              const QString& needle) {
    if (page < 0 || needle.simplified().isEmpty())
        return {};
    if (document.origin(page).source == PageOrigin::Source::Ocr)
        return wordBoxesOfMatch(document.pageWords.value(page), needle);
    if (page >= pdf.pageCount())
        return {};
    const QString text = pdf.getAllText(page).text();
    const QRegularExpressionMatch m = patternOf(needle).match(text);
    if (!m.hasMatch())
        return {};
    const QPdfSelection selection =
        pdf.getSelectionAtIndex(page, int(m.capturedStart()), int(m.capturedLength()));
    QList<QRectF> boxes;
    for (const QPolygonF& polygon : selection.bounds())
        if (const QRectF box = polygon.boundingRect(); !box.isEmpty())
            boxes << box;
    if (boxes.isEmpty() && !selection.boundingRectangle().isEmpty())
        boxes << selection.boundingRectangle();
    return boxes;
}

} // namespace folio::ui
