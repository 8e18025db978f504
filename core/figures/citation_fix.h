#pragma once
// The one-click fix of a figure found on another page than its citation names (issue #46 §2):
// the citation the checker read the figure against (the first one after it in its sentence,
// else the one before; check_figures.h) is made to name the page the figure is on.
//   "[p. 3]"      -> "[p. 5]"           a citation of one page: that page is replaced
//   "[pp. 3-4]"   -> "[pp. 3-4, 5]"     a range, or a list: the page is added, so the pages
//   "[p. 3, 9]"   -> "[p. 3, 9, 5]"     other figures of the sentence cite stay named
//   "[doc 2, p. 3]" keeps its document.

#include "core/figures/citations.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace folio::figures {

struct CitationFix {
    size_t offset = 0; // bytes into the answer (UTF-8) of the citation to replace
    size_t length = 0; // bytes
    std::string text;  // the citation as it should read
};

// The fix for the figure at `figure_offset` (bytes, as FigureResult::offset) that is on page
// `found_page` of its document; nullopt when that figure has no citation, or its citation
// already names the page.
std::optional<CitationFix> citation_fix(std::string_view answer,
                                        const std::vector<CitationTarget>& documents,
                                        size_t figure_offset, int found_page);

// `answer` with `fix` applied.
std::string apply_citation_fix(std::string_view answer, const CitationFix& fix);

} // namespace folio::figures
