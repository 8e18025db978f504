#include "figures/pdf_pages.h"

#include "core/documents/document_loader.h"

#include <QCoreApplication>

#include <memory>

namespace folio::figures_cli {

namespace {

// QtPdf expects an application object; the CLI has none.
std::unique_ptr<QCoreApplication> ensureApplication() {
    if (QCoreApplication::instance())
        return nullptr;
    static int argc = 1;
    static char name[] = "folio-cli";
    static char* argv[] = {name, nullptr};
    return std::make_unique<QCoreApplication>(argc, argv);
}

} // namespace

int read_pdf_pages(const std::string& path, PdfPages& out, std::string& error) {
    const auto app = ensureApplication();
    using folio::ui::Document;
    const Document doc = folio::ui::loadDocument(QString::fromStdString(path));
    if (doc.state != Document::State::Ready) {
        error = doc.error.toStdString();
        return 1;
    }
    if (doc.kind != Document::Kind::Pdf) {
        error = path + ": not a PDF";
        return 1;
    }
    out.title = doc.title.toStdString();
    out.pages.clear();
    for (int p = 0; p < doc.pageCount; ++p)
        out.pages.push_back(doc.pageTexts.value(p).toStdString());
    return 0;
}

} // namespace folio::figures_cli
