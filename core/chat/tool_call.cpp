#include "core/chat/tool_call.h"

#include <QObject>
#include <QStringList>

namespace folio::ui {

namespace {

bool isTableLine(const QString& line) {
    return line.startsWith(QLatin1Char('|'));
}

// Cuts the cells of one "| a | b |" row to `maxChars` (escaped pipes "\|" stay inside a cell).
QString cutCells(const QString& line, int maxChars) {
    QString out;
    QString cell;
    auto flush = [&] {
        const QString t = cell.trimmed();
        out += QLatin1Char(' ') +
               (t.size() > maxChars ? t.left(maxChars - 1) + QStringLiteral("…") : t) +
               QStringLiteral(" |");
        cell.clear();
    };
    out = QStringLiteral("|");
    for (qsizetype i = 1; i < line.size(); ++i) {
        const QChar c = line[i];
        if (c == QLatin1Char('\\') && i + 1 < line.size() && line[i + 1] == QLatin1Char('|')) {
            cell += QStringLiteral("\\|");
            ++i;
        } else if (c == QLatin1Char('|')) {
            flush();
        } else {
            cell += c;
        }
    }
    return out;
}

} // namespace

int resultRows(const QString& result) {
    int rows = 0;
    for (const QString& line : result.split(QLatin1Char('\n')))
        if (isTableLine(line))
            ++rows;
    return qMax(0, rows - 2); // header and separator
}

QString displayResult(const QString& result, int maxRows, int maxCellChars) {
    const QStringList lines = result.split(QLatin1Char('\n'));
    QStringList out;
    int tableLines = 0;
    int left = 0;
    for (const QString& line : lines) {
        if (!isTableLine(line)) {
            if (!line.trimmed().isEmpty())
                out << line;
            continue;
        }
        if (tableLines++ < maxRows + 2)
            out << cutCells(line, maxCellChars);
        else
            ++left;
    }
    if (left > 0)
        out << QString()
            << (left == 1 ? QObject::tr("… 1 more row not shown")
                          : QObject::tr("… %1 more rows not shown").arg(left));
    return out.join(QLatin1Char('\n'));
}

QString toolCallsMarkdown(const QList<ToolCallRecord>& calls) {
    QString md;
    for (const ToolCallRecord& c : calls) {
        md += QObject::tr("**Tool call** `%1`").arg(c.name) + QStringLiteral("\n\n");
        md += QStringLiteral("```sql\n%1\n```\n\n").arg(c.query());
        if (!c.done)
            md += QObject::tr("*(no result)*") + QStringLiteral("\n\n");
        else
            md += displayResult(c.result) + QStringLiteral("\n\n");
    }
    return md;
}

} // namespace folio::ui
