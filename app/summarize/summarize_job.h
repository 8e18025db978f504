#pragma once
// `folio-cli summarize`: the workbench's "Summarize document" without a window. The PDF's text is
// read with QtPdf (as the Documents pane does), split into page ranges that fit the context
// (pipeline/summary_plan, exact counts with Engine::count_tokens), each range summarized by the
// engine and the parts combined in stages; progress per request on stderr; the Markdown (with
// the page ranges of its parts) is written atomically. Any length works. The summary's figures
// are checked against the PDF's pages (core/figures, as the workbench does): the count goes to
// stdout, the table to --figures.
//
// The interface is std only so folio-cli's own code stays free of Qt; only this library links
// Qt (Core, Gui, Pdf).

#include <cstdint>
#include <string>
#include <vector>

namespace folio::summarize {

struct Options {
    std::string document;            // PDF
    std::vector<std::string> images; // charts, used with a vision projector
    std::string model;
    std::string mmproj;
    std::string out;      // Markdown file
    std::string figures;  // --figures: the summary's checked figures as JSON (check-figures -o)
    int max_tokens = 512; // per request (at most half the context)
    int threads = 0;
    int64_t context = 0;
    bool quiet = false; // no progress on stderr
};

// 0 on success; 1 with a message in `error` (names the file and the problem).
int run(const Options& options, std::string& error);

} // namespace folio::summarize
