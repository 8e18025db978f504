#pragma once
// The unit a page states for its figures: "All figures in $ million", "(in thousands)",
// "(RMB million)", "RMB'000", "HK$'000", "单位：百万美元", "单位：人民币万元", "（亿元）". A bare
// figure of such a page (no scale word of its own) is worth its digits times that unit, so under
// "$ million" a table cell 4,500 verifies "$4.5 billion" and "45亿美元".

#include <string_view>
#include <vector>

namespace folio::figures {

// The distinct scale factors the page states (1e6 for millions), in order of appearance; empty
// when it states none. A scale word right after a number ("3.2 million") is an amount, not a unit.
std::vector<long double> page_unit_factors(std::u32string_view normalized_page);

} // namespace folio::figures
