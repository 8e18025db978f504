#pragma once
// A table the model wrote as a GitHub-flavoured Markdown pipe table (header row, separator row of
// dashes with optional colons, one row per line; `\|` is a pipe inside a cell), found in a reply
// that may have prose around it, checked, and written back out as TSV, CSV (RFC 4180) or
// Markdown. A reply that holds no table, or a table whose rows do not all have the header's
// number of cells, is reported as such and never turned into cells.

#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

namespace folio::ui {

struct MarkdownTable {
    QStringList header;
    QList<QStringList> rows; // each has header.size() cells
    int columnCount() const { return static_cast<int>(header.size()); }
};

struct TableParse {
    enum class Status {
        Ok,
        NotATable, // no header row followed by a separator row anywhere in the text
        Ragged,    // a row (or the separator) has another number of cells than the header
        Empty,     // a header and a separator but no data rows
    };
    Status status = Status::NotATable;
    MarkdownTable table; // when Ok (the header also when Ragged or Empty)
    // Ragged: the first offending row, 1-based among the data rows (0: the separator row),
    // and its number of cells against the header's.
    int raggedRow = 0;
    int raggedCells = 0;
    int firstLine = -1; // 0-based line of the header row in the text (-1: no table)
    // For the user: what was found and what is wrong ("" when Ok).
    QString message;
    // The technical reason behind `message`, for a details line ("" when Ok or none).
    QString detail;

    bool ok() const { return status == Status::Ok; }
};

// Finds the first pipe table in `text` and checks it.
TableParse parseMarkdownTable(const QString& text);

// The cells of one table line: outer pipes dropped, split at unescaped pipes, `\|` turned into
// `|`, each cell trimmed.
QStringList splitTableRow(const QString& line);

// Tab-separated values, one line per row (header first), for the clipboard: tabs and line
// breaks inside cells become spaces (spreadsheets paste TSV without quoting rules).
QString tableToTsv(const MarkdownTable& table);
// RFC 4180: CRLF between records, a cell quoted when it holds a quote, comma, CR or LF, quotes
// inside doubled. Header first.
QString tableToCsv(const MarkdownTable& table);
// A pipe table (header, `---` separator, rows); pipes in cells escaped as `\|`, line breaks
// inside cells written as `<br>`.
QString tableToMarkdown(const MarkdownTable& table);

} // namespace folio::ui

Q_DECLARE_METATYPE(folio::ui::TableParse)
