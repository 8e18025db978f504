// The Markdown table parser behind "Extract table" (issue #23): a valid table, one inside
// prose and a code fence, escaped pipes, alignment colons, a ragged table (reported with its row
// number), prose with pipes but no separator and plain prose ("not a table"), a header without
// rows; and the exports: CSV read back by an independent RFC 4180 reader (written here) and
// compared cell by cell, TSV, and Markdown parsed back.
#include <QtTest>

#include "core/pipeline/markdown_table.h"

using namespace folio::ui;

namespace {

// An RFC 4180 reader, written from the RFC's grammar (not from tableToCsv): records end at CRLF
// outside quotes, fields at commas, a quoted field may hold commas, CR, LF and "" for a quote.
QList<QStringList> readCsv(const QString& text, bool* wellFormed) {
    QList<QStringList> records;
    QStringList record;
    QString field;
    bool quoted = false, fieldStarted = false;
    *wellFormed = true;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (quoted) {
            if (c == QLatin1Char('"')) {
                if (i + 1 < text.size() && text[i + 1] == QLatin1Char('"')) {
                    field += QLatin1Char('"');
                    ++i;
                } else {
                    quoted = false;
                }
            } else {
                field += c;
            }
            continue;
        }
        if (c == QLatin1Char('"')) {
            if (fieldStarted && !field.isEmpty())
                *wellFormed = false; // a quote inside an unquoted field
            quoted = true;
            fieldStarted = true;
        } else if (c == QLatin1Char(',')) {
            record << field;
            field.clear();
            fieldStarted = false;
        } else if (c == QLatin1Char('\r')) {
            if (i + 1 >= text.size() || text[i + 1] != QLatin1Char('\n'))
                *wellFormed = false; // a bare CR outside quotes
            record << field;
            records << record;
            record.clear();
            field.clear();
            fieldStarted = false;
            ++i;
        } else if (c == QLatin1Char('\n')) {
            *wellFormed = false; // records must end in CRLF
        } else {
            field += c;
            fieldStarted = true;
        }
    }
    if (quoted)
        *wellFormed = false;
    if (fieldStarted || !record.isEmpty()) {
        record << field;
        records << record;
    }
    return records;
}

} // namespace

class TestMarkdownTable : public QObject {
    Q_OBJECT
private slots:
    void validTable() {
        const TableParse p = parseMarkdownTable(QStringLiteral("| Year | Revenue (EUR m) |\n"
                                                               "| --- | ---: |\n"
                                                               "| 2023 | 118.4 |\n"
                                                               "| 2024 | 127.1 |\n"));
        QVERIFY(p.ok());
        QCOMPARE(p.firstLine, 0);
        QCOMPARE(p.table.header, (QStringList{"Year", "Revenue (EUR m)"}));
        QCOMPARE(p.table.rows.size(), 2);
        QCOMPARE(p.table.rows[0], (QStringList{"2023", "118.4"}));
        QCOMPARE(p.table.rows[1], (QStringList{"2024", "127.1"}));
        QVERIFY(p.message.isEmpty());
    }

    // Models often add a sentence and a code fence around the table; rows without outer pipes
    // and :---: alignment are GFM too. The table ends at the first line without a pipe.
    void tableInsideProse() {
        const QString reply =
            QStringLiteral("Sure! Here is the data from the chart | as requested:\n"
                           "\n"
                           "```markdown\n"
                           "Segment | Q1 (%) | Q2 (%)\n"
                           ":--- | :---: | ---:\n"
                           "Sensors | 41 | 43.5\n"
                           "Meters | 59 | 56.5\n"
                           "```\n"
                           "| Not | part |\n"
                           "The shares add up to 100 in each quarter.");
        const TableParse p = parseMarkdownTable(reply);
        QVERIFY2(p.ok(), qPrintable(p.message));
        QCOMPARE(p.firstLine, 3);
        QCOMPARE(p.table.header, (QStringList{"Segment", "Q1 (%)", "Q2 (%)"}));
        QCOMPARE(p.table.rows.size(), 2);
        QCOMPARE(p.table.rows[1], (QStringList{"Meters", "59", "56.5"}));
    }

    // The first table wins; a later one is ignored.
    void firstOfTwoTables() {
        const TableParse p = parseMarkdownTable(
            QStringLiteral("|a|b|\n|-|-|\n|1|2|\n\n|c|d|e|\n|-|-|-|\n|3|4|5|\n"));
        QVERIFY(p.ok());
        QCOMPARE(p.table.header, (QStringList{"a", "b"}));
        QCOMPARE(p.table.rows, (QList<QStringList>{{"1", "2"}}));
    }

    void escapedPipes() {
        const TableParse p = parseMarkdownTable(QStringLiteral(
            "| Expression | Value |\n|---|---|\n| a \\| b | 3 |\n| \\|x\\| | 4 \\|\n"));
        QVERIFY2(p.ok(), qPrintable(p.message));
        QCOMPARE(p.table.rows.size(), 2);
        QCOMPARE(p.table.rows[0], (QStringList{"a | b", "3"}));
        // the last cell ends in an escaped pipe, not an outer one
        QCOMPARE(p.table.rows[1], (QStringList{"|x|", "4 |"}));
        QCOMPARE(splitTableRow(QStringLiteral("  | 1 |  | 3 |  ")), (QStringList{"1", "", "3"}));
    }

    void raggedRowIsReportedWithItsNumber() {
        const TableParse p = parseMarkdownTable(QStringLiteral("Here:\n"
                                                               "| Year | Revenue | Margin |\n"
                                                               "| --- | --- | --- |\n"
                                                               "| 2022 | 101 | 8.1 |\n"
                                                               "| 2023 | 118 | 9.0 |\n"
                                                               "| 2024 | 127 |\n"
                                                               "| 2025 | 131 | 9.9 |\n"));
        QCOMPARE(p.status, TableParse::Status::Ragged);
        QVERIFY(!p.ok());
        QCOMPARE(p.raggedRow, 3);
        QCOMPARE(p.raggedCells, 2);
        QVERIFY(p.table.rows.isEmpty()); // no cells handed out from a ragged table
        QVERIFY2(p.message.contains(QStringLiteral("row 3 has 2 cells, the header 3")),
                 qPrintable(p.message));
        // too many cells is ragged too
        const TableParse wide =
            parseMarkdownTable(QStringLiteral("|a|b|\n|--|--|\n|1|2|\n|1|2|3|\n"));
        QCOMPARE(wide.status, TableParse::Status::Ragged);
        QCOMPARE(wide.raggedRow, 2);
        QCOMPARE(wide.raggedCells, 3);
    }

    void raggedSeparator() {
        const TableParse p = parseMarkdownTable(QStringLiteral("|a|b|c|\n|---|---|\n|1|2|3|\n"));
        QCOMPARE(p.status, TableParse::Status::Ragged);
        QCOMPARE(p.raggedRow, 0);
        QVERIFY2(p.message.contains(QStringLiteral("separator row has 2 cells")),
                 qPrintable(p.message));
    }

    void proseIsNotATable() {
        for (const QString& text :
             {QStringLiteral("The chart shows revenue rising from 101 in 2022 to 131 in 2025."),
              QStringLiteral("Revenue | 2024 | 127\nMargin | 2024 | 9.9\n"), // pipes, no separator
              QStringLiteral("Title\n---\nSome text | more\n"), // setext heading, not a separator
              QStringLiteral(""), QStringLiteral("|\n|")}) {
            const TableParse p = parseMarkdownTable(text);
            QCOMPARE(p.status, TableParse::Status::NotATable);
            QCOMPARE(p.firstLine, -1);
            QVERIFY(p.table.header.isEmpty() && p.table.rows.isEmpty());
            QCOMPARE(p.message, QStringLiteral("The model's answer did not contain a table. Try "
                                               "again, or choose another image."));
            QVERIFY(p.detail.contains(QStringLiteral("separator row (| --- |)")));
        }
    }

    void headerWithoutRows() {
        const TableParse p =
            parseMarkdownTable(QStringLiteral("| a | b |\n| - | - |\n\n| 1 | 2 |"));
        QCOMPARE(p.status, TableParse::Status::Empty);
        QVERIFY(p.message.contains(QStringLiteral("no rows")));
    }

    void crlfReply() {
        const TableParse p =
            parseMarkdownTable(QStringLiteral("| a | b |\r\n| --- | --- |\r\n| 1 | 2 |\r\n"));
        QVERIFY(p.ok());
        QCOMPARE(p.table.rows, (QList<QStringList>{{"1", "2"}}));
    }

    // CSV with every awkward character, read back cell by cell by the reader above.
    void csvReadsBackCellByCell() {
        MarkdownTable t;
        t.header = {QStringLiteral("Segment"), QStringLiteral("Revenue, EUR m"),
                    QStringLiteral("Note")};
        t.rows = {
            {QStringLiteral("Sensors"), QStringLiteral("41.5"),
             QStringLiteral("said \"record\" year")},
            {QStringLiteral("Meters"), QStringLiteral("1,234.5"), QStringLiteral("two\nlines")},
            {QStringLiteral(""), QStringLiteral("7"), QStringLiteral("cr\r\nlf and ,\"")},
            {QStringLiteral("营业收入"), QStringLiteral("-3"), QStringLiteral(" spaced ")}};
        const QString csv = tableToCsv(t);
        // hand-written expectation of the first two records
        QVERIFY(csv.startsWith(
            QStringLiteral("Segment,\"Revenue, EUR m\",Note\r\nSensors,41.5,\"said \"\"record\"\" "
                           "year\"\r\n")));
        bool wellFormed = false;
        const QList<QStringList> back = readCsv(csv, &wellFormed);
        QVERIFY(wellFormed);
        QCOMPARE(back.size(), t.rows.size() + 1);
        QCOMPARE(back[0], t.header);
        for (int r = 0; r < t.rows.size(); ++r) {
            QCOMPARE(back[r + 1].size(), t.columnCount());
            for (int c = 0; c < t.columnCount(); ++c)
                QCOMPARE(back[r + 1][c], t.rows[r][c]);
        }
    }

    void tsvAndMarkdown() {
        MarkdownTable t;
        t.header = {QStringLiteral("a|b"), QStringLiteral("c")};
        t.rows = {{QStringLiteral("1\t2"), QStringLiteral("x\ny")}};
        QCOMPARE(tableToTsv(t), QStringLiteral("a|b\tc\n1 2\tx y\n"));
        const QString md = tableToMarkdown(t);
        QCOMPARE(md, QStringLiteral("| a\\|b | c |\n| --- | --- |\n| 1\t2 | x<br>y |\n"));
        const TableParse back = parseMarkdownTable(md);
        QVERIFY(back.ok());
        QCOMPARE(back.table.header, t.header);
        QCOMPARE(back.table.rows[0][1], QStringLiteral("x<br>y"));
    }
};

QTEST_GUILESS_MAIN(TestMarkdownTable)
#include "test_markdown_table.moc"
