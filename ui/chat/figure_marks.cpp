#include "chat/figure_marks.h"

#include "style/palette_colors.h"

#include <QCoreApplication>
#include <QRegularExpression>

namespace folio::ui {

namespace {
QString tr(const char* text) {
    // The context lupdate gives a tr() of a function in namespace folio::ui.
    return QCoreApplication::translate("folio::ui", text);
}
} // namespace

QString figureMarkUrl(int messageIndex, int figure) {
    return QStringLiteral("folio:figure/%1/%2").arg(messageIndex).arg(figure);
}

bool isFigureMarkUrl(const QString& url) {
    return url.startsWith(QLatin1String("folio:figure/"));
}

bool figureMarkFromUrl(const QString& url, int* messageIndex, int* figure) {
    static const QRegularExpression re(QStringLiteral(R"(^folio:figure/(\d+)/(\d+)$)"));
    const QRegularExpressionMatch m = re.match(url);
    if (!m.hasMatch())
        return false;
    if (messageIndex)
        *messageIndex = m.captured(1).toInt();
    if (figure)
        *figure = m.captured(2).toInt();
    return true;
}

QString figureMarkGlyph(CheckedFigure::State state) {
    return figureGlyph(state);
}

QColor figureMarkColour(const QPalette& palette, CheckedFigure::State state) {
    switch (state) {
    case CheckedFigure::State::Verified:
        return style::toneText(palette, style::Tone::Positive);
    case CheckedFigure::State::OtherPage:
        return style::toneText(palette, style::Tone::Warning);
    case CheckedFigure::State::NotFound:
        return style::toneText(palette, style::Tone::Negative);
    case CheckedFigure::State::Uncited:
        break;
    }
    return style::mutedText(palette);
}

QString withFigureMarks(const QString& text, const QList<CheckedFigure>& figures,
                        int messageIndex) {
    return withMarkAfterEachFigure(text, figures, [&](qsizetype k) {
        return QStringLiteral("[%1](%2)")
            .arg(figureMarkGlyph(figures[k].state), figureMarkUrl(messageIndex, int(k)));
    });
}

QString figureMarkToolTip(const CheckedFigure& figure, const QString& documentTitle,
                          int documentCount) {
    const QString line = figure.line.simplified();
    const QString where = documentCount > 1 && !documentTitle.isEmpty()
                              ? tr("%1, page %2").arg(documentTitle).arg(figure.foundPage)
                              : tr("page %1").arg(figure.foundPage);
    if (figure.table >= 0)
        return tr("%1 is in the result of query %2: “%3”")
            .arg(figure.figure)
            .arg(figure.table + 1)
            .arg(line);
    if (figure.table == CheckedFigure::kNotInResults)
        return tr("%1 was not found in the results of the answer's queries").arg(figure.figure);
    switch (figure.state) {
    case CheckedFigure::State::Verified:
        return tr("%1 is on the cited %2: “%3”").arg(figure.figure, where, line);
    case CheckedFigure::State::OtherPage:
        return tr("%1 is not on the cited page %2 but on %3: “%4” — click to open it")
            .arg(figure.figure)
            .arg(figure.page)
            .arg(where, line);
    case CheckedFigure::State::NotFound:
        return figure.page > 0 ? tr("%1 was not found on page %2 nor elsewhere in the document")
                                     .arg(figure.figure)
                                     .arg(figure.page)
                               : tr("%1 was not found: its citation names no document at hand")
                                     .arg(figure.figure);
    case CheckedFigure::State::Uncited:
        break;
    }
    return tr("%1 is in a sentence without a citation: not checked").arg(figure.figure);
}

} // namespace folio::ui
