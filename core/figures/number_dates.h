#pragma once
// Dates as documents and answers write them (2024-12-31 · 31 December 2024 · December 31, 2024
// · 2024年12月31日 · 31/12/2024), read by numbers.h's read_numbers: a date is not an amount.

#include "core/figures/numbers.h"

#include <optional>
#include <string_view>

namespace folio::figures {

// The date written at `pos` of normalised text, or none.
std::optional<NumberToken> date_at(std::u32string_view text, size_t pos);

} // namespace folio::figures
