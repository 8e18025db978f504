#pragma once
// `folio-cli pages` and `folio-cli bench-ocr`: a PDF's pages with where their text came from
// (the text layer, or OCR with its mean confidence), and OCR's speed on generated scanned pages.
// The work is done by folio_ocr (Qt, Tesseract); this interface is std only, so folio-cli's own
// code stays free of Qt, like folio_summarize and folio_export.

#include <string>
#include <vector>

namespace folio::ocrjob {

struct PagesOptions {
    std::string pdf;
    std::string pages;         // "3-7", "1,4,9-", "" : all (1-based)
    std::string ocr = "auto";  // auto: pages without a (good) text layer; always; off
    std::string lang = "auto"; // auto (script detection) or eng, chi_sim, eng+chi_sim, ...
    int threads = 2;
    std::string cacheDir; // "" : the user's cache folder
    bool noCache = false;
    bool quiet = false; // no progress on stderr
};

// Prints each page's text on stdout under a header naming its source. 0 on success; 1 with
// a message in `error` (a page OCR could not read is reported on its page and makes it 1).
int runPages(const PagesOptions& options, std::string& error);

struct BenchOptions {
    int pages = 4; // per language
    int threads = 2;
    std::string lang = "auto";
};

// Generates scanned pages of English and of Simplified Chinese text, reads them at `threads`
// threads (no cache), prints pages per second and the character accuracy against the source.
int runBenchOcr(const BenchOptions& options, std::string& error);

// "3-7,9", "5-" over pages 1..count into 0-based indices, in order, each once; "" is every
// page. Empty with a message in `error` on a malformed or out-of-range spec.
std::vector<int> parsePageRanges(const std::string& spec, int count, std::string& error);

} // namespace folio::ocrjob
