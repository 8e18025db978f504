#pragma once
// Where a claimed figure stands on a page, allowing exactly the rounding the claim shows.
//
// The rule: a claim written with its last digit in place u (u = 0.1 for "12.4 %", 1e8 for
// "3.2 billion", 1e6 for "三千五百万") matches a page value v when |v - claim| <= u / 2, both
// edges included (12.35 and 12.45 both round to 12.4 by one convention or the other). Nothing
// looser: "3.2 billion" matches 3,150.0 … 3,250.0 million, "1,234" does not match 1.2 thousand.
// A claim never borrows the page's precision.
//
// What counts as the same quantity:
//   amounts   a page amount as written ("$4.5 billion"), and a bare page number (no scale word,
//             no %) both as it stands and times each unit the page states (page_unit.h).
//             Currencies are not compared (pages state theirs once).
//   % and pp  a page percent, points or bare number with the same value (a "%" column header);
//             12 % is never 0.12.
//   dates     the same day, month and year however written.
//   sign      compared only when the claim writes one ("-3.4", "(3.4)", "+3.4"); prose says
//             "a loss of 3.4" for a page's (3.4).
//   ranges    both ends on the same page.
//
// A page is read as OCR leaves it: O/o and l/I between digits are read as 0 and 1, and a number
// broken over a line at a separator ("3,183.\n6", "1,234\n,567") is joined.

#include "core/figures/numbers.h"

#include <string>
#include <string_view>
#include <vector>

namespace folio::figures {

struct PageNumbers {
    std::u32string text; // normalised, repaired, broken numbers joined
    std::vector<NumberToken> tokens;
    std::vector<long double> unit_factors;
};

PageNumbers read_page(std::string_view page_text);

struct PageMatch {
    bool found = false;
    size_t token = 0; // the page token of the (first) match
};

PageMatch find_on_page(const NumberToken& claim, const PageNumbers& page);

// The page's line that holds token `index`, white space collapsed.
std::string line_of(const PageNumbers& page, size_t index);
// Token `index` as the page writes it ("$1,186 million"), for finding it on the page's picture.
std::string token_text(const PageNumbers& page, size_t index);

} // namespace folio::figures
