#pragma once
// `folio-cli report`: a report from a template (issue #49 §5), headless. The documents' text is
// read with QtPdf (scanned pages with OCR), each section planned and answered on its own by the
// embedded engine (-m) or an OpenAI-compatible server (--remote), its figures checked, the
// report saved after every section beside the output (OUT.folio-report: a second run resumes at
// the first section not made), and exported by the output's suffix (.pdf, .odt, .html, .md).
// Progress per section on stderr, the figure counts on stdout. std-only interface; the library
// links Qt (Core, Gui, Pdf).

#include <cstdint>
#include <string>
#include <vector>

namespace folio::report {

struct Options {
    std::string templateName;                // a built-in id or a template file
    std::string language = "en";             // of a built-in template: en | zh_CN
    std::vector<std::string> documents;      // PDFs, in "doc N" order
    std::vector<std::string> images;         // charts
    std::vector<std::string> data;           // CSV files or one SQLite file (the SQL tool)
    std::string model, mmproj;               // embedded engine
    std::string remote, apiKey, remoteModel; // or a server
    std::string out;                         // .pdf | .odt | .html | .md
    std::string reportFile;                  // "" : OUT with the suffix .folio-report
    bool restart = false;                    // make every section again (ignore a saved report)
    int max_tokens = 768;                    // per section
    int threads = 0;
    int64_t context = 0;
    bool quiet = false;
};

// 0 on success; 1 with a message in `error`.
int run(const Options& options, std::string& error);

} // namespace folio::report
