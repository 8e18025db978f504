#include "documents/documents_pane.h"

#include "documents/highlight_pdf_view.h"

#include "style/palette_colors.h"

#include <QKeySequence>
#include <QShortcut>

#include <algorithm>

#include <QFileInfo>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QMenu>
#include <QPdfDocument>
#include <QPdfPageNavigator>
#include <QPdfView>
#include <QPushButton>
#include <QSplitter>
#include <QStackedWidget>
#include <QThread>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace folio::ui {

DocumentsPane::DocumentsPane(QWidget* parent) : DocumentsPane(nullptr, parent) {}

DocumentsPane::DocumentsPane(ChatDocuments* documents, QWidget* parent)
    : QWidget(parent), docs_(documents ? documents : new ChatDocuments(nullptr, this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);

    auto* openButton = new QPushButton(tr("Open document…"), this);
    openButton->setObjectName(QStringLiteral("openDocumentButton"));
    connect(openButton, &QPushButton::clicked, this, &DocumentsPane::openRequested);
    recent_ = new QToolButton(this);
    recent_->setObjectName(QStringLiteral("recentDocumentsButton"));
    recent_->setText(tr("Recent"));
    recent_->setPopupMode(QToolButton::InstantPopup);
    recent_->setMenu(new QMenu(recent_));
    recent_->setEnabled(false);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(openButton, 1);
    buttons->addWidget(recent_);
    layout->addLayout(buttons);

    auto* splitter = new QSplitter(Qt::Vertical, this);
    list_ = new QListWidget(splitter);
    list_->setObjectName(QStringLiteral("documentList"));
    list_->setWordWrap(true);
    list_->setAlternatingRowColors(true);
    list_->setIconSize(QSize(kThumbnailSize / 2, kThumbnailSize / 2));
    connect(list_, &QListWidget::currentRowChanged, this, [this](int row) {
        citedPage_ = 0; // a citation sets it again after choosing the row
        showPreview(row);
    });
    list_->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(list_, &QListWidget::customContextMenuRequested, this, &DocumentsPane::showListMenu);
    auto* del = new QShortcut(QKeySequence::Delete, list_);
    del->setContext(Qt::WidgetShortcut);
    connect(del, &QShortcut::activated, this, [this] { removeDocument(list_->currentRow()); });

    auto* previewBox = new QWidget(splitter);
    auto* previewLayout = new QVBoxLayout(previewBox);
    previewLayout->setContentsMargins(0, 0, 0, 0);
    previewLayout->setSpacing(2);
    auto* listButtons = new QHBoxLayout;
    auto addButton = [this, listButtons](const QString& text, const QString& tip,
                                         const char* name) {
        auto* b = new QToolButton(this);
        b->setText(text);
        b->setToolTip(tip);
        b->setObjectName(QLatin1String(name));
        listButtons->addWidget(b);
        return b;
    };
    connect(addButton(tr("Remove"), tr("Remove the selected document from this chat (Delete)"),
                      "removeDocumentButton"),
            &QToolButton::clicked, this, [this] { removeDocument(list_->currentRow()); });
    connect(addButton(tr("↑"), tr("Move up (earlier in the prompt)"), "moveDocumentUpButton"),
            &QToolButton::clicked, this, [this] { moveDocument(list_->currentRow(), -1); });
    connect(addButton(tr("↓"), tr("Move down (later in the prompt)"), "moveDocumentDownButton"),
            &QToolButton::clicked, this, [this] { moveDocument(list_->currentRow(), 1); });
    connect(addButton(tr("Pin pages…"),
                      tr("Pages of the selected PDF that always go into the "
                         "prompt"),
                      "pinPagesButton"),
            &QToolButton::clicked, this, [this] { editPinnedPages(list_->currentRow()); });
    listButtons->addStretch(1);
    previewLayout->addLayout(listButtons);
    pageLabel_ = new QLabel(previewBox);
    pageLabel_->setObjectName(QStringLiteral("previewPageLabel"));
    pageLabel_->hide();
    previewLayout->addWidget(pageLabel_);
    preview_ = new QStackedWidget(previewBox);
    previewLayout->addWidget(preview_, 1);
    emptyLabel_ = new QLabel(emptyHint(), preview_);
    emptyLabel_->setWordWrap(true);
    emptyLabel_->setAlignment(Qt::AlignCenter);
    emptyLabel_->setObjectName(QStringLiteral("documentsEmptyLabel"));
    imageLabel_ = new QLabel(preview_);
    imageLabel_->setAlignment(Qt::AlignCenter);
    pdfDocument_ = new QPdfDocument(this);
    pdfView_ = new HighlightPdfView(preview_);
    pdfView_->setDocument(pdfDocument_);
    pdfView_->setPageMode(QPdfView::PageMode::MultiPage);
    pdfView_->setZoomMode(QPdfView::ZoomMode::FitToWidth);
    // Pages fitted to the width with a bar shown only as needed never come to rest where the
    // page fits with the bar (narrower) and not without it (wider): the bar would appear and
    // disappear forever and the window stop answering. The bar stays.
    pdfView_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOn);
    connect(pdfView_->pageNavigator(), &QPdfPageNavigator::currentPageChanged, this,
            &DocumentsPane::updatePageLabel);
    // Right-click on the preview: attach the page shown, or a part of it, to the question. A
    // scroll area takes its viewport's context menu events itself (QAbstractScrollArea::
    // viewportEvent), so the PDF view's policy counts, not the viewport's (issue #48 §13).
    for (QWidget* w : {static_cast<QWidget*>(imageLabel_), static_cast<QWidget*>(pdfView_)}) {
        w->setContextMenuPolicy(Qt::CustomContextMenu);
        connect(w, &QWidget::customContextMenuRequested, this, &DocumentsPane::showPreviewMenu);
    }
    preview_->addWidget(emptyLabel_);
    preview_->addWidget(imageLabel_);
    preview_->addWidget(pdfView_);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 3);
    layout->addWidget(splitter, 1);

    summary_ = new QLabel(tr("No documents"), this);
    summary_->setObjectName(QStringLiteral("documentsSummary"));
    summary_->setWordWrap(true); // its long lines would set the pane's (and window's) width
    layout->addWidget(summary_);
    connectList();
}

void DocumentsPane::connectList() {
    // ChatDocuments' signals the window and the chat follow, as the pane's own.
    connect(docs_, &ChatDocuments::documentLoaded, this, &DocumentsPane::documentLoaded);
    connect(docs_, &ChatDocuments::loadFailed, this, &DocumentsPane::loadFailed);
    connect(docs_, &ChatDocuments::busyChanged, this, &DocumentsPane::busyChanged);
    connect(docs_, &ChatDocuments::documentsEdited, this, &DocumentsPane::documentsEdited);
    connect(docs_, &ChatDocuments::problemsChanged, this, &DocumentsPane::problemsChanged);
    connect(docs_, &ChatDocuments::documentTextChanged, this, &DocumentsPane::documentTextChanged);
    connect(docs_, &ChatDocuments::ocrMessage, this, &DocumentsPane::ocrMessage);
    // The list, the preview and the summary follow the rows.
    connect(docs_, &ChatDocuments::rowsReset, this, &DocumentsPane::onRowsReset);
    connect(docs_, &ChatDocuments::rowInserted, this, &DocumentsPane::onRowInserted);
    connect(docs_, &ChatDocuments::rowRemoved, this, &DocumentsPane::onRowRemoved);
    connect(docs_, &ChatDocuments::rowMoved, this, &DocumentsPane::onRowMoved);
    connect(docs_, &ChatDocuments::rowChanged, this, &DocumentsPane::onRowChanged);
    connect(docs_, &ChatDocuments::rowLoaded, this, [this](int row) {
        if (list_->currentRow() == row)
            showPreview(row);
    });
    connect(docs_, &ChatDocuments::totalsChanged, this, &DocumentsPane::refreshSummary);
    if (docs_->count() > 0)
        onRowsReset();
}

void DocumentsPane::onRowsReset() {
    {
        const QSignalBlocker block(list_);
        list_->clear();
        for (int i = 0; i < docs_->count(); ++i) {
            list_->addItem(QString());
            refreshItem(i);
        }
    }
    citedPage_ = 0;
    list_->setCurrentRow(list_->count() > 0 ? 0 : -1);
    showPreview(list_->currentRow());
}

void DocumentsPane::onRowInserted(int row) {
    list_->insertItem(row, QString());
    refreshItem(row);
    if (list_->currentRow() < 0)
        list_->setCurrentRow(0);
}

void DocumentsPane::onRowRemoved(int row) {
    const int current = list_->currentRow();
    {
        const QSignalBlocker block(list_);
        delete list_->takeItem(row);
    }
    const int next = list_->count() == 0 ? -1 : qMin(current, list_->count() - 1);
    list_->setCurrentRow(next);
    showPreview(next);
}

void DocumentsPane::onRowMoved(int from, int to) {
    {
        const QSignalBlocker block(list_);
        QListWidgetItem* item = list_->takeItem(from);
        list_->insertItem(to, item);
    }
    for (int i = 0; i < list_->count(); ++i)
        refreshItem(i);
    list_->setCurrentRow(to);
}

void DocumentsPane::onRowChanged(int row) {
    refreshItem(row);
    if (row == list_->currentRow())
        updatePreviewText(); // its OCR text may have changed
}

void DocumentsPane::openFiles(const QStringList& paths) {
    const int existing = docs_->openFiles(paths);
    if (existing >= 0)
        list_->setCurrentRow(existing);
}

void DocumentsPane::locateDocument(int row, const QString& path) {
    docs_->locate(row, path);
    if (row >= 0 && row < list_->count())
        list_->setCurrentRow(row);
}

void DocumentsPane::setRecentFiles(const QStringList& paths) {
    QMenu* menu = recent_->menu();
    menu->clear();
    for (const QString& path : paths)
        menu->addAction(QFileInfo(path).fileName(), this,
                        [this, path] { Q_EMIT recentChosen(path); })
            ->setToolTip(path);
    recent_->setEnabled(!paths.isEmpty());
}

void DocumentsPane::refreshSummary() {
    const ChatDocuments::Totals totals = docs_->totals();
    const int count = docs_->count();
    QString text = (count == 1 ? tr("1 document") : tr("%1 documents").arg(count)) +
                   (totals.exact ? tr(" · %1 pages · %2 tokens") : tr(" · %1 pages · ~%2 tokens"))
                       .arg(totals.pages)
                       .arg(QLocale().toString(totals.tokens));
    if (contextLimit_ > 0) {
        // Leave room for the question and the answer.
        const bool fits = totals.tokens + 1024 <= contextLimit_;
        text += fits ? tr("\nfits in the %1-token context").arg(QLocale().toString(contextLimit_))
                     : tr("\nlonger than the %1-token context: the pages that go in are chosen "
                          "for each question and named on it")
                           .arg(QLocale().toString(contextLimit_));
    }
    summary_->setText(text);
}

void DocumentsPane::setContextLimit(qint64 tokens) {
    contextLimit_ = tokens;
    if (docs_->count() > 0)
        refreshSummary();
}

int DocumentsPane::currentRow() const {
    return list_->currentRow();
}

int DocumentsPane::rowWithPage(int page) const {
    auto hasPage = [&](int row) {
        const Document& d = docs_->documents()[row];
        return d.state == Document::State::Ready && d.kind == Document::Kind::Pdf && page >= 1 &&
               page <= d.pageCount;
    };
    int row = list_->currentRow();
    if (row >= 0 && row < docs_->count() && hasPage(row))
        return row;
    for (int i = 0; i < docs_->count(); ++i)
        if (hasPage(i))
            return i;
    return -1;
}

bool DocumentsPane::showPage(int page) {
    const int row = rowWithPage(page);
    return row >= 0 && showPage(row, page);
}

bool DocumentsPane::showPage(int row, int page) {
    if (row < 0 || row >= docs_->count())
        return false;
    const Document& d = docs_->documents()[row];
    if (d.state != Document::State::Ready || d.kind != Document::Kind::Pdf || page < 1 ||
        page > d.pageCount)
        return false;
    pendingPage_ = page; // applied once the preview shows this document
    pendingMatch_.clear();
    if (list_->currentRow() != row) {
        const QSignalBlocker block(list_); // keeps the cited page (a click clears it)
        list_->setCurrentRow(row);
    }
    citedPage_ = page;
    showPreview(row);
    return true;
}

QString DocumentsPane::pageLine() const {
    return pageLabel_->text();
}

void DocumentsPane::updatePageLabel() {
    const int row = list_->currentRow();
    if (preview_->currentWidget() != pdfView_ || row < 0 || row >= docs_->count()) {
        pageLabel_->hide();
        return;
    }
    const int page = previewPage();
    QString text = tr("Page %1 of %2").arg(page).arg(docs_->documents()[row].pageCount);
    const bool cited = citedPage_ > 0 && page == citedPage_;
    if (citedPage_ > 0)
        text += tr(" · cited: p. %1").arg(citedPage_);
    pageLabel_->setText(text);
    pageLabel_->setStyleSheet(
        cited ? style::labelStyle(palette(), style::Tone::Warning, 0, QStringLiteral("2px 6px"))
              : QStringLiteral("QLabel { padding: 2px 6px; }"));
    pageLabel_->show();
}

int DocumentsPane::previewPage() const {
    if (preview_->currentWidget() != pdfView_)
        return 0;
    return pdfView_->pageNavigator()->currentPage() + 1;
}

void DocumentsPane::refreshItem(int row) {
    if (row < 0 || row >= list_->count() || row >= docs_->count())
        return; // not in the list yet
    const Document& d = docs_->documents()[row];
    QString detail;
    switch (d.state) {
    case Document::State::Loading:
        detail = d.pageCount > 0
                     ? tr("reading page %1 of %2…").arg(docs_->progress(row)).arg(d.pageCount)
                     : tr("loading…");
        break;
    case Document::State::Failed:
        detail = d.error;
        break;
    case Document::State::Ready:
        if (d.kind == Document::Kind::Image)
            detail = tr("image %1×%2 · ~%3 tokens")
                         .arg(d.imageSize.width())
                         .arg(d.imageSize.height())
                         .arg(d.estimatedTokens(docs_->charsPerToken()));
        else
            detail =
                (d.pageCount == 1 ? tr("1 page") : tr("%1 pages").arg(d.pageCount)) +
                (docs_->hasTokenLine(d.fingerprint)
                     ? QStringLiteral(" · ") + docs_->tokenLine(d.fingerprint)
                     : tr(" · ~%1 tokens")
                           .arg(QLocale().toString(d.estimatedTokens(docs_->charsPerToken())))) +
                (d.pagesWithoutText() ? tr(" · %1 without text").arg(d.pagesWithoutText())
                                      : QString()) +
                (d.pagesWithoutText() && row < docs_->count() &&
                         !docs_->chatDocument(row).readScannedPages
                     ? tr(" (not read as images)")
                     : QString());
        break;
    }
    if (row < docs_->count()) {
        if (!docs_->chatDocument(row).pinnedPages.isEmpty())
            detail += tr(" · pinned: %1").arg(docs_->chatDocument(row).pinnedPages);
        if (docs_->problem(row) == Problem::Missing)
            detail = tr("missing: %1 (right-click → Locate…)").arg(d.path);
        else if (docs_->problem(row) == Problem::Changed)
            detail += tr(" · changed since it was added (right-click → Locate…)");
    }
    if (const QString ocr = ocrLine(row); !ocr.isEmpty())
        detail += QLatin1Char('\n') + ocr;
    if (d.state == Document::State::Ready && !docs_->readingStatus(d.fingerprint).isEmpty())
        detail += QLatin1Char('\n') + docs_->readingStatus(d.fingerprint);
    QListWidgetItem* item = list_->item(row);
    item->setText(QStringLiteral("%1. ").arg(row + 1) + d.title + QLatin1Char('\n') + detail);
    item->setToolTip(d.path);
    const bool bad = d.state == Document::State::Failed ||
                     (row < docs_->count() && docs_->problem(row) != Problem::None);
    item->setForeground(bad ? QBrush(Qt::darkRed) : QBrush());
    if (!d.thumbnail.isNull())
        item->setIcon(QIcon(QPixmap::fromImage(d.thumbnail)));
}

QString DocumentsPane::emptyHint() const {
    return tr("Open a PDF report or a chart image (File → Open document…), or drop files here.");
}

void DocumentsPane::showPreview(int row) {
    if (row < 0 || row >= docs_->count()) {
        // Nothing to show: the hint, not the last document's "Opening …" (a preview still
        // opening for it is dropped when it arrives).
        requestedPdf_.clear();
        emptyLabel_->setText(emptyHint());
        preview_->setCurrentWidget(emptyLabel_);
        updatePageLabel();
        return;
    }
    const Document& d = docs_->documents()[row];
    if (d.state != Document::State::Ready) {
        emptyLabel_->setText(d.state == Document::State::Loading ? tr("Loading %1…").arg(d.title)
                                                                 : d.error);
        preview_->setCurrentWidget(emptyLabel_);
        updatePageLabel();
        return;
    }
    if (d.kind == Document::Kind::Image) {
        imageLabel_->setPixmap(QPixmap::fromImage(d.preview)); // scaled by the loader
        preview_->setCurrentWidget(imageLabel_);
        updatePageLabel();
    } else {
        // The preview has its own QPdfDocument, opened in the thread pool.
        if (shownPdf_ == d.path) {
            preview_->setCurrentWidget(pdfView_);
            updatePreviewText();
            jumpToPendingPage();
        } else if (requestedPdf_ != d.path) {
            loadPdfPreview(d.path);
        }
    }
}

void DocumentsPane::jumpToPendingPage() {
    if (pendingPage_ > 0) {
        pdfView_->pageNavigator()->jump(pendingPage_ - 1, QPointF(), pdfView_->zoomFactor());
        highlightMatch(pendingPage_, pendingMatch_);
        pendingPage_ = 0;
        pendingMatch_.clear();
    }
    updatePageLabel();
}

void DocumentsPane::loadPdfPreview(const QString& path) {
    requestedPdf_ = path;
    emptyLabel_->setText(tr("Opening %1…").arg(QFileInfo(path).fileName()));
    preview_->setCurrentWidget(emptyLabel_);
    auto* watcher = new QFutureWatcher<QPdfDocument*>(this);
    connect(watcher, &QFutureWatcher<QPdfDocument*>::finished, this, [this, watcher, path] {
        QPdfDocument* doc = watcher->result();
        watcher->deleteLater();
        if (path != requestedPdf_) { // another document was chosen meanwhile
            delete doc;
            return;
        }
        requestedPdf_.clear();
        doc->setParent(this);
        QPdfDocument* old = pdfDocument_;
        pdfDocument_ = doc;
        pdfView_->setDocument(doc);
        delete old;
        shownPdf_ = path;
        const int row = list_->currentRow();
        if (row >= 0 && row < docs_->count() && docs_->documents()[row].path == path) {
            preview_->setCurrentWidget(pdfView_);
            updatePreviewText();
            jumpToPendingPage();
        }
    });
    QThread* gui = thread();
    watcher->setFuture(QtConcurrent::run([path, gui] {
        auto* doc = new QPdfDocument;
        doc->load(path);
        doc->moveToThread(gui);
        return doc;
    }));
}

} // namespace folio::ui
