#pragma once
// `folio-cli export`: a saved chat (the chat store's JSON file) written as Markdown, HTML, PDF or
// JSON, chosen by the output's suffix, exactly as the workbench's File → Export chat… writes it
// (folio_core's exportChat: the chosen branch, the chat's documents under the title, citations
// linked to their pages, links relative to the output's folder).
//
// The interface is std only so folio-cli's own code stays free of Qt; only this library links
// Qt (the core: Core, Gui for the PDF layout).

#include <string>

namespace folio::exporting {

struct Options {
    std::string chat;  // a chat file (JSON, "format": "folio-chat")
    std::string out;   // .md / .markdown, .html / .htm, .pdf, .json
    std::string model; // named in the export's header ("" : none)
};

// 0 on success; 1 with a message in `error` (names the file and the problem).
int run(const Options& options, std::string& error);

} // namespace folio::exporting
