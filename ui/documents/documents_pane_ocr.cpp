// DocumentsPane: OCR of the documents' scanned pages (issue #46 §1) as the pane offers it — the
// context menu's languages, stop and read again — and the preview's document for Find. The
// rows' OCR lines are ChatDocuments' (chat_documents_ocr.cpp); the reading LoadedDocuments'.
#include "documents/documents_pane.h"

#include "core/documents/document_ocr.h"
#include "core/documents/loaded_documents.h"
#include "core/documents/ocr_languages.h"
#include "documents/highlight_pdf_view.h"

#include <QActionGroup>
#include <QListWidget>
#include <QMenu>
#include <QPdfView>

namespace folio::ui {

void DocumentsPane::addOcrActions(QMenu& menu, int row) {
    if (row < 0 || row >= docs_->count())
        return;
    const Document& d = docs_->documents()[row];
    if (d.state != Document::State::Ready || d.kind != Document::Kind::Pdf ||
        d.pagesNeedingOcr().isEmpty())
        return;
    const bool running = loadedDocuments()->isReadingOcr(d.path);
    if (running) {
        menu.addAction(tr("Stop OCR"), this, [this, row] { stopOcr(row); })
            ->setObjectName(QStringLiteral("stopOcr"));
    } else if (!pagesToRead(d).isEmpty()) {
        menu.addAction(tr("Read scanned pages with OCR"), this, [this, row] { readOcr(row); })
            ->setObjectName(QStringLiteral("readOcr"));
    }
    QMenu* languages = menu.addMenu(tr("OCR language"));
    languages->setObjectName(QStringLiteral("ocrLanguageMenu"));
    auto* group = new QActionGroup(languages);
    const QString current = ocrLanguages(row);
    for (const QString& choice : ocrLanguageChoices()) {
        QString text;
        if (choice == QLatin1String("auto"))
            text = d.scriptHint.isEmpty()
                       ? tr("Automatic (from the document's script)")
                       : tr("Automatic (detected: %1)").arg(ocrLanguageName(d.scriptHint));
        else
            text = ocrLanguageName(choice);
        QAction* action = languages->addAction(text);
        action->setObjectName(QStringLiteral("ocrLanguage-") + choice);
        action->setCheckable(true);
        action->setChecked(choice == current);
        group->addAction(action);
        connect(action, &QAction::triggered, this,
                [this, row, choice] { setOcrLanguages(row, choice); });
    }
}

void DocumentsPane::updatePreviewText() {
    const int row = list_->currentRow();
    if (row >= 0 && row < docs_->count() && docs_->documents()[row].path == shownPdf_)
        pdfView_->setProperty(kPreviewDocumentProperty,
                              QVariant::fromValue(docs_->documents()[row]));
    else
        pdfView_->setProperty(kPreviewDocumentProperty, QVariant());
}

} // namespace folio::ui
