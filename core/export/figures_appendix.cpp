#include "core/export/figures_appendix.h"

#include <QCoreApplication>
#include <QStringList>

#include <algorithm>

namespace folio::ui {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("folio::ui", text);
}

// One row of the appendix, its cells as plain text.
struct FigureRow {
    int answer = 0;
    QString figure, state, cited, found, line;
};

QString pageRef(int document, int page, const QStringList& titles) {
    if (page <= 0)
        return QStringLiteral("—");
    if (titles.size() > 1 && document >= 0 && document < titles.size())
        return tr("%1, p. %2").arg(titles[document]).arg(page);
    return tr("p. %1").arg(page);
}

QList<FigureRow> rowsOf(const QList<ChatMessage>& messages, const QStringList& chatTitles) {
    QList<FigureRow> rows;
    int answer = 0;
    for (const ChatMessage& m : messages) {
        if (m.role != ChatMessage::Role::Assistant)
            continue;
        ++answer;
        // A figure's document is the answer's "doc N": its own documents when it kept them.
        QStringList titles = chatTitles;
        if (!m.citedDocuments.isEmpty()) {
            titles.clear();
            for (const CitedDocument& d : m.citedDocuments)
                titles << d.title;
        }
        for (const CheckedFigure& f : m.figures) {
            FigureRow r;
            r.answer = answer;
            r.figure = f.figure;
            r.state = figureGlyph(f.state) + QLatin1Char(' ') + figureStateLabel(f.state);
            r.cited = pageRef(f.document, f.page, titles);
            r.found = pageRef(f.document, f.foundPage, titles);
            if (f.table != -1) // checked against the answer's query results, not a page
                r.cited = tr("query results");
            if (f.table >= 0)
                r.found = tr("query %1").arg(f.table + 1);
            r.line = f.line.simplified();
            rows << r;
        }
    }
    return rows;
}

// A table cell's text: one line, "|" kept as text.
QString markdownCell(const QString& s) {
    QString out = s.simplified();
    return out.replace(QLatin1Char('|'), QStringLiteral("\\|"));
}

} // namespace

QString withExportFigureMarks(const QString& text, const QList<CheckedFigure>& figures) {
    QList<qsizetype> order;
    for (qsizetype k = 0; k < figures.size(); ++k)
        if (figureStandsIn(figures[k], text))
            order << k;
    // From the end, so each insertion leaves the earlier offsets where they are.
    std::sort(order.begin(), order.end(), [&figures](qsizetype a, qsizetype b) {
        return figures[a].offset > figures[b].offset;
    });
    QString out = text;
    qsizetype limit = text.size(); // a figure overlapping a later one keeps no mark
    for (qsizetype k : order) {
        const CheckedFigure& f = figures[k];
        const qsizetype end = f.offset + f.length;
        if (end > limit)
            continue;
        out.insert(end, QChar(0x202F) + figureGlyph(f.state)); // a narrow no-break space
        limit = f.offset;
    }
    return out;
}

QString figuresAppendixMarkdown(const QList<ChatMessage>& messages,
                                const QStringList& documentTitles) {
    const QList<FigureRow> rows = rowsOf(messages, documentTitles);
    if (rows.isEmpty())
        return {};
    QString md = QStringLiteral("## %1\n\n| %2 | %3 | %4 | %5 | %6 | %7 |\n"
                                "| ---: | --- | --- | --- | --- | --- |\n")
                     .arg(tr("Figures checked"), tr("Answer"), tr("Figure"), tr("State"),
                          tr("Cited"), tr("Found"))
                     .arg(tr("Line on the page"));
    for (const FigureRow& r : rows)
        md += QStringLiteral("| %1 | %2 | %3 | %4 | %5 | %6 |\n")
                  .arg(r.answer)
                  .arg(markdownCell(r.figure), markdownCell(r.state), markdownCell(r.cited),
                       markdownCell(r.found), markdownCell(r.line));
    return md + QLatin1Char('\n');
}

QString figuresAppendixHtml(const QList<ChatMessage>& messages, const QStringList& documentTitles) {
    const QList<FigureRow> rows = rowsOf(messages, documentTitles);
    if (rows.isEmpty())
        return {};
    QString html =
        QStringLiteral(
            "<h2>%1</h2>\n<table border=\"1\" cellspacing=\"0\" cellpadding=\"4\">\n"
            "<tr><th>%2</th><th>%3</th><th>%4</th><th>%5</th><th>%6</th><th>%7</th></tr>\n")
            .arg(tr("Figures checked"), tr("Answer"), tr("Figure"), tr("State"), tr("Cited"),
                 tr("Found"), tr("Line on the page"));
    for (const FigureRow& r : rows)
        html += QStringLiteral("<tr><td align=\"right\">%1</td><td>%2</td><td>%3</td><td>%4</td>"
                               "<td>%5</td><td>%6</td></tr>\n")
                    .arg(r.answer)
                    .arg(r.figure.toHtmlEscaped(), r.state.toHtmlEscaped(), r.cited.toHtmlEscaped(),
                         r.found.toHtmlEscaped(), r.line.toHtmlEscaped());
    return html + QStringLiteral("</table>\n");
}

} // namespace folio::ui
