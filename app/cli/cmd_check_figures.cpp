// folio-cli check-figures --answer ANSWER.md DOC.pdf [DOC2.pdf...] [-o OUT.json]: every figure
// of an answer's cited sentences looked for on the page it cites (core/figures,
// docs/FIGURE_CHECK.md), without a model. Prints "Figures: 7 verified · 1 on another page ·
// 2 not found · 1 uncited" and writes the table of every figure with -o.
//
// Documents are PDFs (read with QtPdf by the Qt-linked folio_pdf_pages library, as the workbench
// reads them) or text files with one page per form feed (what pdftotext writes), which need no
// Qt. Documents count as "[doc 1, …]", "[doc 2, …]" in the order given.
#include "cli/args.h"
#include "cli/commands.h"

#include "core/figures/check_figures.h"
#include "core/figures/figures_json.h"

#ifdef FOLIO_HAVE_PDF_PAGES
#include "figures/pdf_pages.h"
#endif

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace folio::cli {

namespace {

bool read_file(const std::string& path, std::string& out) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return false;
    std::ostringstream s;
    s << in.rdbuf();
    out = s.str();
    return !in.bad();
}

bool ends_with(const std::string& s, const std::string& suffix) {
    if (s.size() < suffix.size())
        return false;
    for (size_t i = 0; i < suffix.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(s[s.size() - suffix.size() + i])) != suffix[i])
            return false;
    return true;
}

// A text file: pages separated by form feeds; the empty piece after a final form feed is no page.
std::vector<std::string> text_pages(const std::string& text) {
    std::vector<std::string> pages;
    size_t b = 0;
    while (true) {
        const size_t e = text.find('\f', b);
        if (e == std::string::npos) {
            if (b < text.size() || pages.empty())
                pages.push_back(text.substr(b));
            break;
        }
        pages.push_back(text.substr(b, e - b));
        b = e + 1;
    }
    return pages;
}

bool load_document(const std::string& path, folio::figures::SourceDocument& doc,
                   std::string& error) {
    const std::filesystem::path p(path);
    doc.file_name = p.filename().string();
    doc.title = p.stem().string();
    if (ends_with(path, ".txt")) {
        std::string text;
        if (!read_file(path, text)) {
            error = path + ": cannot be read";
            return false;
        }
        doc.pages = text_pages(text);
        return true;
    }
#ifdef FOLIO_HAVE_PDF_PAGES
    folio::figures_cli::PdfPages pdf;
    if (folio::figures_cli::read_pdf_pages(path, pdf, error) != 0)
        return false;
    if (!pdf.title.empty())
        doc.title = pdf.title;
    doc.pages = std::move(pdf.pages);
    return true;
#else
    error = path + ": reading PDFs needs the Qt part of Folio (built with FOLIO_BUILD_UI=OFF); "
                   "give the pages as a text file with form feeds (pdftotext)";
    return false;
#endif
}

// Written next to the target and renamed over it: a reader never sees half a table.
bool write_atomically(const std::string& path, const std::string& text) {
    const std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out || !(out << text) || !out.flush())
            return false;
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec)
        std::filesystem::remove(tmp, ec);
    return !ec;
}

} // namespace

int cmd_check_figures(std::vector<std::string> raw) {
    const Command& self = *find_command("check-figures");
    Args args(std::move(raw));
    const std::string answer_path = args.take_value("--answer", "-a").value_or("");
    const std::string out_path = args.take_value("--out", "-o").value_or("");
    const std::vector<std::string> files = args.positionals();
    if (!args.ok())
        return usage_error(self, args.error());
    if (answer_path.empty())
        return usage_error(self, "no answer given (--answer ANSWER.md)");
    if (files.empty())
        return usage_error(self, "no document given");
    std::string answer;
    if (!read_file(answer_path, answer))
        return fail(answer_path + ": cannot be read");
    std::vector<folio::figures::SourceDocument> documents(files.size());
    for (size_t i = 0; i < files.size(); ++i) {
        std::string error;
        if (!load_document(files[i], documents[i], error))
            return fail(error);
    }
    const auto results = folio::figures::check_figures(answer, documents);
    std::printf("%s\n",
                folio::figures::figures_count_line(folio::figures::count_figures(results)).c_str());
    if (!out_path.empty() && !write_atomically(out_path, folio::figures::figures_json(results)))
        return fail(out_path + ": cannot be written");
    return 0;
}

} // namespace folio::cli
