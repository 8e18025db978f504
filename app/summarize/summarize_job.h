#pragma once
// `folio-cli summarize`: the workbench's pipeline without a window. The PDF's text is read with
// QtPdf (as the Documents pane does), put in the prompt with page markers (pipeline/
// prompt_builder), answered by the engine and written as Markdown atomically.
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
    std::string out; // Markdown file
    int max_tokens = 512;
    int threads = 0;
    int64_t context = 0;
    bool quiet = false; // no progress on stderr
};

// 0 on success; 1 with a message in `error` (names the file and the problem).
int run(const Options& options, std::string& error);

} // namespace folio::summarize
