#pragma once
// What a number read by read_numbers is for (docs/FIGURE_CHECK.md): a claim, or a year standing
// alone, a month of a year, a list marker, a reference ("note 5", "第3页") or part of a name.

#include "core/figures/numbers.h"

#include <string_view>

namespace folio::figures {

// True when only horizontal space stands between the start of its line and `pos`.
bool at_line_start(std::u32string_view text, size_t pos);
// The role of `tok` in `text`: `digits_start` / `core_end` bound its digits, `paren_open` says it
// follows an unmatched "(", `whole_integer` that it has no decimals or groups.
NumberRole role_of(std::u32string_view text, const NumberToken& tok, size_t digits_start,
                   size_t core_end, bool paren_open, bool whole_integer);

} // namespace folio::figures
