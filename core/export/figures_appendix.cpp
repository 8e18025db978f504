#include "core/export/figures_appendix.h"

#include <QCoreApplication>
#include <QStringList>

namespace folio::ui {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("folio::ui", text);
}

// One row of the appendix, its cells as plain text.
struct FigureRow {
    QString group;
    QString figure, state, cited, found, line;
};

QString pageRef(int document, int page, const QStringList& titles) {
    if (page <= 0)
        return QStringLiteral("—");
    if (titles.size() > 1 && document >= 0 && document < titles.size())
        return tr("%1, p. %2").arg(titles[document]).arg(page);
    return tr("p. %1").arg(page);
}

QList<FigureRow> rowsOf(const QList<FigureGroup>& groups) {
    QList<FigureRow> rows;
    for (const FigureGroup& g : groups) {
        for (const CheckedFigure& f : g.figures) {
            FigureRow r;
            r.group = g.label;
            r.figure = f.figure;
            r.state = figureGlyph(f.state) + QLatin1Char(' ') + figureStateLabel(f.state);
            r.cited = pageRef(f.document, f.page, g.documentTitles);
            r.found = pageRef(f.document, f.foundPage, g.documentTitles);
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

QList<FigureGroup> answerGroups(const QList<ChatMessage>& messages, const QStringList& chatTitles) {
    QList<FigureGroup> groups;
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
        groups << FigureGroup{QString::number(answer), m.figures, titles};
    }
    return groups;
}

// A table cell's text: one line, "|" kept as text.
QString markdownCell(const QString& s) {
    QString out = s.simplified();
    return out.replace(QLatin1Char('|'), QStringLiteral("\\|"));
}

} // namespace

QString withExportFigureMarks(const QString& text, const QList<CheckedFigure>& figures) {
    return withMarkAfterEachFigure(text, figures, [&figures](qsizetype k) {
        return QChar(0x202F) + figureGlyph(figures[k].state); // a narrow no-break space
    });
}

QString figuresAppendixMarkdown(const QList<FigureGroup>& groups, const QString& groupColumn) {
    const QList<FigureRow> rows = rowsOf(groups);
    if (rows.isEmpty())
        return {};
    QString md = QStringLiteral("## %1\n\n| %2 | %3 | %4 | %5 | %6 | %7 |\n"
                                "| ---: | --- | --- | --- | --- | --- |\n")
                     .arg(tr("Figures checked"), markdownCell(groupColumn), tr("Figure"),
                          tr("State"), tr("Cited"), tr("Found"))
                     .arg(tr("Line on the page"));
    for (const FigureRow& r : rows)
        md += QStringLiteral("| %1 | %2 | %3 | %4 | %5 | %6 |\n")
                  .arg(markdownCell(r.group), markdownCell(r.figure), markdownCell(r.state),
                       markdownCell(r.cited), markdownCell(r.found), markdownCell(r.line));
    return md + QLatin1Char('\n');
}

QString figuresAppendixHtml(const QList<FigureGroup>& groups, const QString& groupColumn) {
    const QList<FigureRow> rows = rowsOf(groups);
    if (rows.isEmpty())
        return {};
    QString html =
        QStringLiteral(
            "<h2>%1</h2>\n<table border=\"1\" cellspacing=\"0\" cellpadding=\"4\">\n"
            "<tr><th>%2</th><th>%3</th><th>%4</th><th>%5</th><th>%6</th><th>%7</th></tr>\n")
            .arg(tr("Figures checked"), groupColumn.toHtmlEscaped(), tr("Figure"), tr("State"),
                 tr("Cited"), tr("Found"), tr("Line on the page"));
    for (const FigureRow& r : rows)
        html += QStringLiteral("<tr><td align=\"right\">%1</td><td>%2</td><td>%3</td><td>%4</td>"
                               "<td>%5</td><td>%6</td></tr>\n")
                    .arg(r.group.toHtmlEscaped(), r.figure.toHtmlEscaped(), r.state.toHtmlEscaped(),
                         r.cited.toHtmlEscaped(), r.found.toHtmlEscaped(), r.line.toHtmlEscaped());
    return html + QStringLiteral("</table>\n");
}

QString figuresAppendixMarkdown(const QList<ChatMessage>& messages,
                                const QStringList& documentTitles) {
    return figuresAppendixMarkdown(answerGroups(messages, documentTitles), tr("Answer"));
}

QString figuresAppendixHtml(const QList<ChatMessage>& messages, const QStringList& documentTitles) {
    return figuresAppendixHtml(answerGroups(messages, documentTitles), tr("Answer"));
}

} // namespace folio::ui
