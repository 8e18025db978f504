// DocumentsPane: editing the chat's list of documents as the user asks for it — the list's
// context menu (remove, reorder, pin pages, locate a missing or changed file; issue #22 §1), the
// pinned pages' dialog, and attaching a page or an image to the question. The list itself is
// ChatDocuments'; the rest of the pane (rows, preview, sizes) is in documents_pane.cpp.
#include "documents/documents_pane.h"

#include "core/pipeline/page_ranges.h"
#include "documents/page_crop_dialog.h"

#include <QAbstractScrollArea>
#include <QCursor>
#include <QInputDialog>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMessageBox>

namespace folio::ui {

void DocumentsPane::editPinnedPages(int row) {
    if (row < 0 || row >= docs_->count())
        return;
    QString text = docs_->chatDocument(row).pinnedPages;
    for (;;) {
        bool ok = false;
        text = QInputDialog::getText(
            this, tr("Pin pages"),
            tr("Pages of %1 that always go into the prompt (e.g. 1-4, 37; empty for none):")
                .arg(docs_->documents()[row].title),
            QLineEdit::Normal, text, &ok);
        if (!ok)
            return;
        const int pages = docs_->documents()[row].pageCount;
        QString error;
        if (!text.trimmed().isEmpty() && parsePageRanges(text, pages, &error).isEmpty()) {
            QMessageBox::warning(this, tr("Pin pages"),
                                 tr("Pages of %1: %2").arg(docs_->documents()[row].title, error));
            continue;
        }
        break;
    }
    setPinnedPages(row, text);
}

void DocumentsPane::showListMenu(const QPoint& pos) {
    const int row = list_->indexAt(pos).row();
    if (row < 0)
        return;
    QMenu menu(this);
    menu.setObjectName(QStringLiteral("documentMenu"));
    menu.addAction(tr("Remove"), this, [this, row] { removeDocument(row); });
    menu.addAction(tr("Move up"), this, [this, row] { moveDocument(row, -1); })
        ->setEnabled(row > 0);
    menu.addAction(tr("Move down"), this, [this, row] { moveDocument(row, 1); })
        ->setEnabled(row + 1 < docs_->count());
    menu.addAction(tr("Pin pages…"), this, [this, row] { editPinnedPages(row); })
        ->setEnabled(!docs_->chatDocument(row).isImage);
    if (docs_->problem(row) != Problem::None)
        menu.addAction(tr("Locate…"), this, [this, row] { Q_EMIT locateRequested(row); });
    if (!docs_->chatDocument(row).isImage && row < docs_->count() &&
        (docs_->documents()[row].pagesWithoutText() > 0 ||
         !docs_->documents()[row].pagesNeedingOcr().isEmpty())) {
        QAction* scanned = menu.addAction(tr("Read scanned pages with the vision model"));
        scanned->setObjectName(QStringLiteral("readScannedPages"));
        scanned->setCheckable(true);
        scanned->setChecked(docs_->chatDocument(row).readScannedPages);
        connect(scanned, &QAction::toggled, this,
                [this, row](bool on) { setReadScannedPages(row, on); });
    }
    addOcrActions(menu, row);
    menu.addSeparator();
    addAttachActions(menu, row, row == currentRow() ? previewPage() : 1);
    menu.exec(list_->viewport()->mapToGlobal(pos));
}

void DocumentsPane::showPreviewMenu(const QPoint& pos) {
    const int row = currentRow();
    if (row < 0)
        return;
    QMenu menu(this);
    menu.setObjectName(QStringLiteral("previewMenu"));
    addAttachActions(menu, row, previewPage());
    if (menu.isEmpty())
        return;
    // The PDF view reports positions in its viewport.
    QWidget* source = qobject_cast<QWidget*>(sender());
    if (auto* area = qobject_cast<QAbstractScrollArea*>(source))
        source = area->viewport();
    menu.exec(source ? source->mapToGlobal(pos) : QCursor::pos());
}

void DocumentsPane::addAttachActions(QMenu& menu, int row, int page) {
    if (row < 0 || row >= docs_->count() || docs_->documents()[row].state != Document::State::Ready)
        return;
    if (docs_->documents()[row].kind == Document::Kind::Image) {
        menu.addAction(tr("Attach to the question"), this, [this, row] { attachToQuestion(row); });
        return;
    }
    page = std::max(page, 1);
    menu.addAction(tr("Attach page %1 to the question").arg(page), this,
                   [this, row, page] { attachToQuestion(row, page); });
    menu.addAction(tr("Attach a part of page %1…").arg(page), this,
                   [this, row, page] { attachPartOfPage(row, page); });
}

void DocumentsPane::attachToQuestion(int row, int page) {
    if (row < 0 || row >= docs_->count() || docs_->documents()[row].state != Document::State::Ready)
        return;
    const Document& d = docs_->documents()[row];
    if (d.kind == Document::Kind::Image)
        Q_EMIT attachImageRequested(d.path);
    else if (page >= 1 && page <= d.pageTexts.size())
        Q_EMIT attachPageRequested(d.path, page, QRectF());
}

PageCropDialog* DocumentsPane::attachPartOfPage(int row, int page) {
    if (row < 0 || row >= docs_->count() ||
        docs_->documents()[row].state != Document::State::Ready ||
        docs_->documents()[row].kind != Document::Kind::Pdf || page < 1 ||
        page > docs_->documents()[row].pageTexts.size())
        return nullptr;
    auto* dialog = new PageCropDialog(docs_->documents()[row].path, page, window());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        Q_EMIT attachPageRequested(dialog->pdfPath(), dialog->page(), dialog->region());
    });
    dialog->open();
    return dialog;
}

} // namespace folio::ui
