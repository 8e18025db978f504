#include "core/pipeline/markdown_table.h"

#include <QCoreApplication>
#include <QRegularExpression>

namespace folio::ui {

namespace {

QString tr(const char* text) {
    // The context lupdate gives a tr() of a function in namespace folio::ui.
    return QCoreApplication::translate("folio::ui", text);
}

// True when `line` has a pipe that is not escaped as `\|`.
bool hasUnescapedPipe(const QString& line) {
    for (qsizetype i = 0; i < line.size(); ++i) {
        if (line[i] == QLatin1Char('\\')) {
            ++i; // the escaped character
            continue;
        }
        if (line[i] == QLatin1Char('|'))
            return true;
    }
    return false;
}

// A separator cell: dashes with optional colons for alignment (GFM "delimiter row").
bool isSeparatorCell(const QString& cell) {
    static const QRegularExpression re(QStringLiteral("^:?-+:?$"));
    return re.match(cell).hasMatch();
}

bool isSeparatorRow(const QString& line) {
    if (!hasUnescapedPipe(line))
        return false; // a bare "---" is a rule or a heading underline, not a table
    const QStringList cells = splitTableRow(line);
    if (cells.isEmpty())
        return false;
    for (const QString& c : cells)
        if (!isSeparatorCell(c))
            return false;
    return true;
}

QString escapeCsvCell(const QString& cell) {
    const bool quote = cell.contains(QLatin1Char('"')) || cell.contains(QLatin1Char(',')) ||
                       cell.contains(QLatin1Char('\r')) || cell.contains(QLatin1Char('\n'));
    if (!quote)
        return cell;
    QString out = cell;
    out.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    return QLatin1Char('"') + out + QLatin1Char('"');
}

QString tsvCell(QString cell) {
    cell.replace(QStringLiteral("\r\n"), QStringLiteral(" "));
    for (QChar c : {QLatin1Char('\t'), QLatin1Char('\r'), QLatin1Char('\n')})
        cell.replace(c, QLatin1Char(' '));
    return cell;
}

QString markdownCell(QString cell) {
    cell.replace(QLatin1Char('|'), QStringLiteral("\\|"));
    cell.replace(QStringLiteral("\r\n"), QStringLiteral("<br>"));
    cell.replace(QLatin1Char('\n'), QStringLiteral("<br>"));
    cell.replace(QLatin1Char('\r'), QStringLiteral("<br>"));
    return cell;
}

QString markdownRow(const QStringList& cells) {
    QStringList out;
    for (const QString& c : cells)
        out << markdownCell(c);
    return QStringLiteral("| ") + out.join(QStringLiteral(" | ")) + QStringLiteral(" |");
}

} // namespace

QStringList splitTableRow(const QString& line) {
    QString s = line.trimmed();
    if (s.startsWith(QLatin1Char('|')))
        s.remove(0, 1);
    if (s.endsWith(QLatin1Char('|')) && !s.endsWith(QStringLiteral("\\|")))
        s.chop(1);
    QStringList cells;
    QString cell;
    for (qsizetype i = 0; i < s.size(); ++i) {
        const QChar c = s[i];
        if (c == QLatin1Char('\\') && i + 1 < s.size() && s[i + 1] == QLatin1Char('|')) {
            cell += QLatin1Char('|');
            ++i;
        } else if (c == QLatin1Char('|')) {
            cells << cell.trimmed();
            cell.clear();
        } else {
            cell += c;
        }
    }
    cells << cell.trimmed();
    return cells;
}

TableParse parseMarkdownTable(const QString& text) {
    TableParse r;
    const QStringList lines = text.split(QLatin1Char('\n'));
    for (qsizetype i = 0; i + 1 < lines.size(); ++i) {
        const QString& head = lines[i];
        if (!hasUnescapedPipe(head) || isSeparatorRow(head) || !isSeparatorRow(lines[i + 1]))
            continue;
        r.firstLine = static_cast<int>(i);
        r.table.header = splitTableRow(head);
        const int columns = r.table.columnCount();
        const int separatorCells = static_cast<int>(splitTableRow(lines[i + 1]).size());
        if (separatorCells != columns) {
            r.status = TableParse::Status::Ragged;
            r.raggedRow = 0;
            r.raggedCells = separatorCells;
            r.message = tr("The table is ragged: its separator row has %1 cells, the header %2.")
                            .arg(separatorCells)
                            .arg(columns);
            return r;
        }
        // Data rows: the lines that follow, up to the first one that is blank or has no pipe.
        for (qsizetype j = i + 2; j < lines.size(); ++j) {
            const QString& line = lines[j];
            if (line.trimmed().isEmpty() || !hasUnescapedPipe(line))
                break;
            const QStringList cells = splitTableRow(line);
            if (cells.size() != columns) {
                r.status = TableParse::Status::Ragged;
                r.raggedRow = static_cast<int>(r.table.rows.size()) + 1;
                r.raggedCells = static_cast<int>(cells.size());
                r.message = tr("The table is ragged: row %1 has %2 cells, the header %3.")
                                .arg(r.raggedRow)
                                .arg(r.raggedCells)
                                .arg(columns);
                r.table.rows.clear();
                return r;
            }
            r.table.rows << cells;
        }
        if (r.table.rows.isEmpty()) {
            r.status = TableParse::Status::Empty;
            r.message = tr("The table has a header but no rows.");
            return r;
        }
        r.status = TableParse::Status::Ok;
        return r;
    }
    r.status = TableParse::Status::NotATable;
    // In the user's words (issue #48 §13); the Markdown rule goes in the details line.
    r.message = tr("The model's answer did not contain a table. Try again, or choose another "
                   "image.");
    r.detail = tr("No header row followed by a separator row (| --- |) was found.");
    return r;
}

QString tableToTsv(const MarkdownTable& table) {
    QString out;
    auto row = [&out](const QStringList& cells) {
        QStringList clean;
        for (const QString& c : cells)
            clean << tsvCell(c);
        out += clean.join(QLatin1Char('\t')) + QLatin1Char('\n');
    };
    row(table.header);
    for (const QStringList& r : table.rows)
        row(r);
    return out;
}

QString tableToCsv(const MarkdownTable& table) {
    QString out;
    auto row = [&out](const QStringList& cells) {
        QStringList quoted;
        for (const QString& c : cells)
            quoted << escapeCsvCell(c);
        out += quoted.join(QLatin1Char(',')) + QStringLiteral("\r\n");
    };
    row(table.header);
    for (const QStringList& r : table.rows)
        row(r);
    return out;
}

QString tableToMarkdown(const MarkdownTable& table) {
    QStringList lines;
    lines << markdownRow(table.header);
    QStringList dashes;
    for (int i = 0; i < table.columnCount(); ++i)
        dashes << QStringLiteral("---");
    lines << QStringLiteral("| ") + dashes.join(QStringLiteral(" | ")) + QStringLiteral(" |");
    for (const QStringList& r : table.rows)
        lines << markdownRow(r);
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

} // namespace folio::ui
