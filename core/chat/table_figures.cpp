#include "core/chat/table_figures.h"

#include "core/figures/table_pages.h"

namespace folio::ui {

namespace {

CheckedFigure::State stateOf(figures::FigureState state) {
    switch (state) {
    case figures::FigureState::Verified:
        return CheckedFigure::State::Verified;
    case figures::FigureState::OtherPage:
        return CheckedFigure::State::OtherPage;
    case figures::FigureState::NotFound:
        return CheckedFigure::State::NotFound;
    case figures::FigureState::Uncited:
        break;
    }
    return CheckedFigure::State::Uncited;
}

// A QString index of a UTF-8 byte offset into `utf8`.
qsizetype indexOf(const std::string& utf8, size_t byte) {
    return QString::fromUtf8(utf8.data(), qsizetype(std::min(byte, utf8.size()))).size();
}

} // namespace

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
        f.figure.offset = indexOf(cell, c.result.offset);
        f.figure.length = indexOf(cell, c.result.offset + c.result.length) - f.figure.offset;
        f.figure.state = stateOf(c.result.state);
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
