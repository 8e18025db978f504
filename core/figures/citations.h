#pragma once
// Page citations in answers: the one reader of their grammar, in plain C++ (the checker must not
// need Qt; core/chat/citations.h is the workbench's Qt face of it):
//   [p. 12]  [page 12]  [pp. 3–5]  [p. 3, 5]  [pages 3-5]           (case-insensitive)
//   [doc 2, p. 7]  [document 2, p. 7]  [report.pdf, p. 7]  [Annual Report, p. 7]
// A citation without a document takes the document of the citation before it in the same text,
// else the only document, else the only document that has the page. Nothing inside code
// (``` fences, `inline code`) is a citation.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace folio::figures {

struct CitationTarget {
    std::string title;
    std::string file_name; // "report.pdf"
    int page_count = 0;    // 0: not known
};

struct Citation {
    size_t start = 0;                       // code points, of the "["
    size_t length = 0;                      // through the "]"
    int document = -1;                      // 0-based; -1: not resolved
    std::vector<std::pair<int, int>> items; // pages and ranges as written
    // Where each item stands in the text: its start and length in code points ("3-5" of
    // "[pp. 3-5]"), so a caller can make each page of a list its own link.
    std::vector<std::pair<size_t, size_t>> item_spans;
    std::vector<int> pages() const; // ranges expanded (at most 1000)
};

// The [start, end) ranges of `text` that are code.
std::vector<std::pair<size_t, size_t>> code_ranges(std::u32string_view text);

// Every citation of `text` outside code, resolved against `documents` (may be empty).
std::vector<Citation> find_citations(std::u32string_view text,
                                     const std::vector<CitationTarget>& documents);

} // namespace folio::figures
