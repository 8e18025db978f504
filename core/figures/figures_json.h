#pragma once
// The checked figures as JSON, the table `folio-cli check-figures -o` writes and the export
// appendix will read: an array of {"figure", "doc" (1-based, as "[doc N, p. K]" counts),
// "page", "state", "found_page", "line"}, null where there is none.

#include "core/figures/check_figures.h"

#include <string>
#include <vector>

namespace folio::figures {

std::string figures_json(const std::vector<FigureResult>& results);

} // namespace folio::figures
