// DocumentsPane: editing the chat's list of documents — remove, reorder, pin pages, locate a
// missing or changed file, and the list's context menu (issue #22 §1). The rest of the pane
// (loading, preview, sizes) is in documents_pane.cpp.
#include "documents/documents_pane.h"

#include "core/documents/loaded_documents.h"
#include "core/pipeline/page_ranges.h"
#include "documents/page_crop_dialog.h"

#include <QAbstractScrollArea>
#include <QCursor>
#include <QFileInfo>
#include <QInputDialog>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMessageBox>

namespace folio::ui {

void DocumentsPane::removeDocument(int row) {
    if (row < 0 || row >= documents_.size())
        return;
    const bool hadProblem = entries_[row].problem != Problem::None;
    const int current = list_->currentRow();
    // A read no chat waits for any more stops (another chat that needs it reads it again).
    if (documents_[row].state == Document::State::Loading)
        loaded_->cancel(documents_[row].path);
    // So does the OCR of its scanned pages (what was read stays in the cache).
    const QString path = documents_[row].path;
    int shown = 0;
    for (const Document& d : std::as_const(documents_))
        shown += d.path == path ? 1 : 0;
    if (shown == 1)
        loaded_->cancelOcr(path);
    documents_.removeAt(row);
    progress_.removeAt(row);
    entries_.removeAt(row);
    {
        const QSignalBlocker block(list_);
        delete list_->takeItem(row);
    }
    const int next = documents_.isEmpty() ? -1 : qMin(current, int(documents_.size()) - 1);
    list_->setCurrentRow(next);
    showPreview(next);
    refreshSummary();
    updateBusy();
    Q_EMIT documentsEdited();
    if (hadProblem)
        Q_EMIT problemsChanged();
}

void DocumentsPane::moveDocument(int row, int delta) {
    const int to = row + delta;
    if (row < 0 || row >= documents_.size() || to < 0 || to >= documents_.size() || delta == 0)
        return;
    documents_.move(row, to);
    progress_.move(row, to);
    entries_.move(row, to);
    {
        const QSignalBlocker block(list_);
        QListWidgetItem* item = list_->takeItem(row);
        list_->insertItem(to, item);
    }
    for (int i = 0; i < documents_.size(); ++i)
        refreshItem(i);
    list_->setCurrentRow(to);
    Q_EMIT documentsEdited();
    if (entries_[to].problem != Problem::None)
        Q_EMIT problemsChanged();
}

void DocumentsPane::setPinnedPages(int row, const QString& pages) {
    if (row < 0 || row >= entries_.size() || entries_[row].saved.pinnedPages == pages.trimmed())
        return;
    entries_[row].saved.pinnedPages = pages.trimmed();
    refreshItem(row);
    Q_EMIT documentsEdited();
}

void DocumentsPane::setReadScannedPages(int row, bool on) {
    if (row < 0 || row >= entries_.size() || entries_[row].saved.readScannedPages == on)
        return;
    entries_[row].saved.readScannedPages = on;
    refreshItem(row);
    Q_EMIT documentsEdited();
}

void DocumentsPane::editPinnedPages(int row) {
    if (row < 0 || row >= entries_.size())
        return;
    QString text = entries_[row].saved.pinnedPages;
    for (;;) {
        bool ok = false;
        text = QInputDialog::getText(
            this, tr("Pin pages"),
            tr("Pages of %1 that always go into the prompt (e.g. 1-4, 37; empty for none):")
                .arg(documents_[row].title),
            QLineEdit::Normal, text, &ok);
        if (!ok)
            return;
        const int pages = documents_[row].pageCount;
        QString error;
        if (!text.trimmed().isEmpty() && parsePageRanges(text, pages, &error).isEmpty()) {
            QMessageBox::warning(this, tr("Pin pages"),
                                 tr("Pages of %1: %2").arg(documents_[row].title, error));
            continue;
        }
        break;
    }
    setPinnedPages(row, text);
}

void DocumentsPane::locateDocument(int row, const QString& path) {
    if (row < 0 || row >= entries_.size() || path.isEmpty())
        return;
    const Entry old = entries_[row];
    ChatDocument saved = old.saved;
    saved.path = QFileInfo(path).absoluteFilePath();
    // The located file replaces the old one in place (same row, same place in the prompt).
    removeDocument(row);
    startLoad(saved.path, saved, true);
    const int last = int(documents_.size()) - 1;
    moveDocument(last, row - last);
    // A file that differs from what the chat had is taken as the chat's document from now on.
    entries_[row].saved.fingerprint.clear();
    list_->setCurrentRow(row);
    Q_EMIT documentsEdited();
    Q_EMIT problemsChanged();
}

DocumentsPane::Problem DocumentsPane::problem(int row) const {
    return row >= 0 && row < entries_.size() ? entries_[row].problem : Problem::None;
}

QString DocumentsPane::problemText(int row) const {
    if (row < 0 || row >= entries_.size())
        return {};
    const ChatDocument& d = entries_[row].saved;
    const QString name = QFileInfo(d.path).fileName();
    switch (entries_[row].problem) {
    case Problem::None:
        return {};
    case Problem::Missing:
        return tr("%1 is missing (it was at %2).").arg(name, d.path);
    case Problem::Changed:
        return tr("%1 has changed since it was added to this chat (%2); answers use the file as "
                  "it is now.")
            .arg(name, d.path);
    case Problem::Unreadable:
        return tr("%1 cannot be read: %2").arg(name, documents_[row].error);
    }
    return {};
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
        ->setEnabled(row + 1 < documents_.size());
    menu.addAction(tr("Pin pages…"), this, [this, row] { editPinnedPages(row); })
        ->setEnabled(!entries_[row].saved.isImage);
    if (entries_[row].problem != Problem::None)
        menu.addAction(tr("Locate…"), this, [this, row] { Q_EMIT locateRequested(row); });
    if (!entries_[row].saved.isImage && row < documents_.size() &&
        (documents_[row].pagesWithoutText() > 0 || !documents_[row].pagesNeedingOcr().isEmpty())) {
        QAction* scanned = menu.addAction(tr("Read scanned pages with the vision model"));
        scanned->setObjectName(QStringLiteral("readScannedPages"));
        scanned->setCheckable(true);
        scanned->setChecked(entries_[row].saved.readScannedPages);
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
    if (row < 0 || row >= documents_.size() || documents_[row].state != Document::State::Ready)
        return;
    if (documents_[row].kind == Document::Kind::Image) {
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
    if (row < 0 || row >= documents_.size() || documents_[row].state != Document::State::Ready)
        return;
    const Document& d = documents_[row];
    if (d.kind == Document::Kind::Image)
        Q_EMIT attachImageRequested(d.path);
    else if (page >= 1 && page <= d.pageTexts.size())
        Q_EMIT attachPageRequested(d.path, page, QRectF());
}

PageCropDialog* DocumentsPane::attachPartOfPage(int row, int page) {
    if (row < 0 || row >= documents_.size() || documents_[row].state != Document::State::Ready ||
        documents_[row].kind != Document::Kind::Pdf || page < 1 ||
        page > documents_[row].pageTexts.size())
        return nullptr;
    auto* dialog = new PageCropDialog(documents_[row].path, page, window());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        Q_EMIT attachPageRequested(dialog->pdfPath(), dialog->page(), dialog->region());
    });
    dialog->open();
    return dialog;
}

} // namespace folio::ui
