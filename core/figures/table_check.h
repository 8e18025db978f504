#pragma once
// A figure cited to a SQL tool result is checked against that result table, not a page: each
// cell is read as a page of its own, its column's header stating the unit ("revenue (USD
// million)", "金额（万元）"). The wiring to the chat's tool results comes with the window.

#include "core/figures/check_figures.h"

#include <string>
#include <string_view>
#include <vector>

namespace folio::figures {

struct ResultTable {
    std::vector<std::string> columns;
    std::vector<std::vector<std::string>> rows;
};

struct TableHit {
    bool found = false;
    size_t row = 0;
    size_t column = 0;
    std::string line; // the row: "region = Asia | revenue = 1,186.0"
};

TableHit find_in_table(const NumberToken& claim, const ResultTable& table);

// Every claim of `text` looked for in `table`: verified (with the row as its line) or not_found.
std::vector<FigureResult> check_figures_against_table(std::string_view text,
                                                      const ResultTable& table);

} // namespace folio::figures
