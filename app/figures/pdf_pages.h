#pragma once
// `folio-cli check-figures`: the text of each page of a PDF, read with QtPdf exactly as the
// workbench's document loader reads it (folio_core). The interface is std only so folio-cli's
// own code stays free of Qt; only this library links Qt.

#include <string>
#include <vector>

namespace folio::figures_cli {

struct PdfPages {
    std::string title;              // the PDF's title metadata, else its file name
    std::vector<std::string> pages; // text layer per page ("" for a scanned page)
};

// 0 on success; 1 with a message in `error` naming the file and the problem.
int read_pdf_pages(const std::string& path, PdfPages& out, std::string& error);

} // namespace folio::figures_cli
