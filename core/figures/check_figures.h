#pragma once
// The figure checker (docs/FIGURE_CHECK.md): every figure of an answer's cited sentences looked
// for on the page it cites. Plain C++: the workbench, folio-cli and the tests call it alike.
//
//   verified    on a cited page (the citation after the figure, else before it, else another
//               citation of the same sentence)
//   other_page  not on a cited page but on page K of the same document (the nearest such page)
//   not_found   on no page of the cited document
//   uncited     in a sentence without a citation
//
// Each result keeps the page's line that holds the match, for tooltips and the export appendix.

#include "core/figures/claims.h"

#include <string>
#include <string_view>
#include <vector>

namespace folio::figures {

enum class FigureState { Verified, OtherPage, NotFound, Uncited };

// "verified", "other_page", "not_found", "uncited".
const char* state_name(FigureState state);

struct SourceDocument {
    std::string title;
    std::string file_name;          // for "[report.pdf, p. 3]"
    std::vector<std::string> pages; // text of each page, page 1 first
};

struct FigureResult {
    std::string figure; // as written in the answer
    size_t offset = 0;  // bytes into the answer
    size_t length = 0;  // bytes
    int document = -1;  // 0-based; -1: none (uncited, or a citation naming no known document)
    int page = 0;       // the cited page (the one it was verified on); 0: none
    FigureState state = FigureState::Uncited;
    int found_page = 0; // where it was found (verified or other_page); 0: nowhere
    std::string line;   // that page's line
    std::string match;  // the page's figure that matched, as the page writes it ("4,500")
};

std::vector<FigureResult> check_figures(std::string_view answer,
                                        const std::vector<SourceDocument>& documents);

struct FigureCounts {
    int verified = 0;
    int other_page = 0;
    int not_found = 0;
    int uncited = 0;
};
FigureCounts count_figures(const std::vector<FigureResult>& results);
// "Figures: 7 verified · 1 on another page · 2 not found · 1 uncited"
std::string figures_count_line(const FigureCounts& counts);

} // namespace folio::figures
