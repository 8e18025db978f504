#pragma once
// A table the model extracted from a document's pages (issue #46 §2: "for every answer (chat,
// summary, table extraction, ...)"): each figure of each cell looked for on the pages the table
// came from — the row's own pages when the table has a source column (a header "Page",
// "Pages", "Source", "页码", "来源": cells "3", "p. 3", "pp. 3–4", "3, 5"), else the pages the
// request sent; a cell's own citation ("603 [p. 6]") names its pages. A cell's figure is worth its
// digits as written (match.h: an unscaled claim compares digits) and, when its column's header
// states a unit ("Revenue ($m)", "金额（亿元）"), its digits times that unit. States as
// check_figures': verified (on one of those pages), other_page (on another page of the document,
// the nearest), not_found. The source column's cells make no claims; a year standing alone ("2024")
// is not a claim (claims.h).

#include "core/figures/check_figures.h"
#include "core/figures/table_check.h"

#include <string_view>
#include <vector>

namespace folio::figures {

struct CellFigure {
    size_t row = 0;    // 0-based among the data rows
    size_t column = 0; // 0-based
    // offset / length: bytes into the cell; page: the first page it was looked for on.
    FigureResult result;
};

// The index of the table's source column, or -1 when it has none.
int source_column(const std::vector<std::string>& columns);

// The pages a source cell names, ascending and distinct (ranges expanded, at most 1000 pages).
std::vector<int> pages_of_source_cell(std::string_view cell);

// Every figure of every cell of `table` checked against `document`: a row's pages are its source
// cell's when it names any, else `pages` (1-based).
std::vector<CellFigure> check_table_cells(const ResultTable& table, const SourceDocument& document,
                                          const std::vector<int>& pages);

} // namespace folio::figures
