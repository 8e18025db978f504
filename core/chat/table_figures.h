#pragma once
// The figures of an extracted table checked against the pages it came from (issue #46 §2:
// table extraction), the figure checker's table_pages on Qt strings: each cell's figures with
// the same states, glyphs and count line as an answer's (message_figures.h). Pure and
// thread-safe.

#include "core/chat/answer_figures.h"
#include "core/chat/message_figures.h"
#include "core/pipeline/markdown_table.h"

#include <QList>
#include <QString>

namespace folio::ui {

struct CellFigure {
    int row = 0;    // 0-based among the table's data rows
    int column = 0; // 0-based
    // offset / length: QString indices into the cell; page: the page it was first looked for
    // on (the row's source page, else the first page the table came from); document 0.
    CheckedFigure figure;
};

// Every figure of every cell of `table`, in row, then column order, checked against `source`:
// a row's pages are those its source column names ("Page", "Source", "页码": "3", "pp. 3-4"),
// else `pages` (1-based: the pages the extraction was sent).
QList<CellFigure> checkTableFigures(const MarkdownTable& table, const FigureSource& source,
                                    const QList<int>& pages);

// The figures of one cell.
QList<CheckedFigure> figuresOfCell(const QList<CellFigure>& figures, int row, int column);
// All of them, for figuresLine / tallyFigures.
QList<CheckedFigure> allFigures(const QList<CellFigure>& figures);

} // namespace folio::ui
