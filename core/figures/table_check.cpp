#include "core/figures/table_check.h"

#include "core/figures/match.h"
#include "core/figures/page_unit.h"
#include "core/figures/text.h"

namespace folio::figures {

namespace {

std::string row_line(const ResultTable& table, size_t row) {
    std::string line;
    const std::vector<std::string>& cells = table.rows[row];
    for (size_t c = 0; c < cells.size(); ++c) {
        if (!line.empty())
            line += " | ";
        if (c < table.columns.size())
            line += table.columns[c] + " = ";
        line += cells[c];
    }
    return line;
}

} // namespace

TableHit find_in_table(const NumberToken& claim, const ResultTable& table) {
    std::vector<std::vector<long double>> units(table.columns.size());
    for (size_t c = 0; c < table.columns.size(); ++c)
        units[c] = page_unit_factors(normalize_for_numbers(decode_utf8(table.columns[c])));
    for (size_t r = 0; r < table.rows.size(); ++r) {
        for (size_t c = 0; c < table.rows[r].size(); ++c) {
            PageNumbers cell = read_page(table.rows[r][c]);
            if (c < units.size())
                cell.unit_factors = units[c];
            if (find_on_page(claim, cell).found)
                return {true, r, c, row_line(table, r)};
        }
    }
    return {};
}

std::vector<FigureResult> check_figures_against_table(std::string_view text,
                                                      const ResultTable& table) {
    std::vector<FigureResult> out;
    for (const AnswerFigure& f : claims_in(text)) {
        FigureResult r;
        r.figure = f.text;
        r.offset = f.offset;
        r.length = f.length;
        const TableHit hit = find_in_table(f.number, table);
        r.state = hit.found ? FigureState::Verified : FigureState::NotFound;
        r.line = hit.line;
        out.push_back(std::move(r));
    }
    return out;
}

} // namespace folio::figures
