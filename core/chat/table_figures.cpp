#include "core/chat/table_figures.h"

#include "core/chat/figure_results.h"
#include "core/figures/table_pages.h"

namespace folio::ui {

QList<CellFigure> checkTableFigures(const MarkdownTable& table, const FigureSource& source,
                                    const QList<int>& pages) {
    figures::ResultTable t;
    for (const QString& h : table.header)
        t.columns.push_back(h.toStdString());
    for (const QStringList& row : table.rows) {
        std::vector<std::string> cells;
        for (const QString& c : row)
            cells.push_back(c.toStdString());
        t.rows.push_back(std::move(cells));
    }
    figures::SourceDocument document;
    document.title = source.title.toStdString();
    document.file_name = source.fileName.toStdString();
    for (const QString& page : source.pages)
        document.pages.push_back(page.toStdString());
    std::vector<int> sent(pages.begin(), pages.end());

    QList<CellFigure> out;
    for (const figures::CellFigure& c : figures::check_table_cells(t, document, sent)) {
        const std::string& cell = t.rows[c.row][c.column];
        CellFigure f;
        f.row = int(c.row);
        f.column = int(c.column);
        f.figure.figure = QString::fromStdString(c.result.figure);
        Utf16Index index(cell);
        f.figure.offset = index.at(c.result.offset);
        f.figure.length = index.at(c.result.offset + c.result.length) - f.figure.offset;
        f.figure.state = checkedState(c.result.state);
        f.figure.document = 0;
        f.figure.page = c.result.page;
        f.figure.foundPage = c.result.found_page;
        f.figure.line = QString::fromStdString(c.result.line);
        f.figure.match = QString::fromStdString(c.result.match);
        out.append(f);
    }
    return out;
}

QList<CheckedFigure> figuresOfCell(const QList<CellFigure>& figures, int row, int column) {
    QList<CheckedFigure> out;
    for (const CellFigure& f : figures)
        if (f.row == row && f.column == column)
            out.append(f.figure);
    return out;
}

QList<CheckedFigure> allFigures(const QList<CellFigure>& figures) {
    QList<CheckedFigure> out;
    out.reserve(figures.size());
    for (const CellFigure& f : figures)
        out.append(f.figure);
    return out;
}

} // namespace folio::ui
