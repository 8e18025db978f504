#include "documents/documents_pane.h"

#include "core/documents/document_loader.h"
#include "core/documents/loaded_documents.h"
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

DocumentsPane::DocumentsPane(QWidget* parent) : QWidget(parent) {
    loaded_ = new LoadedDocuments(this);
    connect(loaded_, &LoadedDocuments::progress, this, &DocumentsPane::onReadProgress);
    connect(loaded_, &LoadedDocuments::finished, this,
            [this](const QString& path, const Document& doc) { onReadFinished(path, doc); });
    connect(loaded_, &LoadedDocuments::ocrProgress, this, &DocumentsPane::onOcrProgress);
    connect(loaded_, &LoadedDocuments::documentUpdated, this, &DocumentsPane::onDocumentUpdated);
    connect(loaded_, &LoadedDocuments::ocrFinished, this, &DocumentsPane::onOcrFinished);
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
    pdfView_ = new QPdfView(preview_);
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
}

void DocumentsPane::openFiles(const QStringList& paths) {
    bool added = false;
    for (const QString& path : paths) {
        if (!isSupportedDocument(path)) {
            Q_EMIT loadFailed(tr("%1: unsupported file type (PDF, PNG, JPEG, BMP, GIF)")
                                  .arg(QFileInfo(path).fileName()));
            continue;
        }
        const QString abs = QFileInfo(path).absoluteFilePath();
        int existing = -1;
        for (int i = 0; i < documents_.size() && existing < 0; ++i)
            if (documents_[i].path == abs && documents_[i].state != Document::State::Failed)
                existing = i;
        if (existing >= 0) { // already in the chat: shown, not added twice
            list_->setCurrentRow(existing);
            continue;
        }
        ChatDocument saved;
        saved.path = abs;
        saved.title = QFileInfo(path).fileName();
        startLoad(abs, saved, false);
        added = true;
    }
    if (list_->currentRow() < 0 && list_->count() > 0)
        list_->setCurrentRow(0);
    if (added)
        Q_EMIT documentsEdited();
}

void DocumentsPane::startLoad(const QString& path, const ChatDocument& saved, bool restored) {
    Document placeholder;
    placeholder.path = path;
    placeholder.title = saved.title.isEmpty() ? QFileInfo(path).fileName() : saved.title;
    placeholder.kind = saved.isImage ? Document::Kind::Image : Document::Kind::Pdf;
    Entry entry;
    entry.id = nextId_++;
    entry.saved = saved;
    entry.restored = restored;
    const quint64 id = entry.id;
    documents_.append(placeholder);
    progress_.append(0);
    entries_.append(entry);
    list_->addItem(QString());
    refreshItem(int(documents_.size() - 1));
    updateBusy();
    if (const std::optional<Document> read = loaded_->find(path)) {
        // Read before (in another chat, or at an earlier visit): ready without reading again,
        // once the caller has set up every row.
        QMetaObject::invokeMethod(
            this, [this, id, doc = *read] { onLoaded(id, doc); }, Qt::QueuedConnection);
        // Scanned pages whose OCR stopped before (the document was removed meanwhile) are read
        // now; those OCR could not read wait for "Read scanned pages with OCR".
        if (loaded_->ocrEnabled() &&
            !read->pagesWithSource(PageOrigin::Source::OcrPending).isEmpty())
            loaded_->readOcr(path);
        return;
    }
    loaded_->read(path);
}

void DocumentsPane::onReadProgress(const QString& path, int done, int total) {
    for (int i = 0; i < documents_.size(); ++i) {
        if (documents_[i].path != path || documents_[i].state != Document::State::Loading)
            continue;
        progress_[i] = done;
        documents_[i].pageCount = total;
        refreshItem(i);
    }
}

void DocumentsPane::onReadFinished(const QString& path, const Document& doc) {
    QList<quint64> waiting;
    for (int i = 0; i < documents_.size(); ++i)
        if (documents_[i].path == path && documents_[i].state == Document::State::Loading)
            waiting << entries_[i].id;
    for (quint64 id : waiting)
        onLoaded(id, doc);
}

int DocumentsPane::rowOf(quint64 id) const {
    for (int i = 0; i < entries_.size(); ++i)
        if (entries_[i].id == id)
            return i;
    return -1;
}

int DocumentsPane::pendingLoads() const {
    int pending = 0;
    for (const Document& d : documents_)
        pending += d.state == Document::State::Loading ? 1 : 0;
    return pending;
}

QStringList DocumentsPane::loadingTitles() const {
    QStringList titles;
    for (const Document& d : documents_)
        if (d.state == Document::State::Loading)
            titles << d.title;
    return titles;
}

void DocumentsPane::updateBusy() {
    const bool busy = pendingLoads() > 0;
    if (busy != busy_) {
        busy_ = busy;
        Q_EMIT busyChanged(busy);
    }
}

void DocumentsPane::onLoaded(quint64 id, const Document& doc) {
    const int index = rowOf(id);
    if (index < 0) // removed (or another chat shown) meanwhile
        return;
    documents_[index] = doc;
    Entry& entry = entries_[index];
    const Problem before = entry.problem;
    if (doc.state == Document::State::Failed) {
        // A file the user just chose is reported by loadFailed; one the chat kept is a problem
        // of the chat (named with "Locate…").
        if (entry.restored)
            entry.problem = QFileInfo::exists(doc.path) ? Problem::Unreadable : Problem::Missing;
    } else {
        entry.problem = !entry.saved.fingerprint.isEmpty() && !doc.fingerprint.isEmpty() &&
                                doc.fingerprint != entry.saved.fingerprint
                            ? Problem::Changed
                            : Problem::None;
        if (entry.problem == Problem::None) {
            // The chat keeps what the file is now (a new document, or one located again).
            entry.saved.fingerprint = doc.fingerprint;
            entry.saved.pageCount = doc.pageCount;
            entry.saved.title = doc.title;
            entry.saved.isImage = doc.kind == Document::Kind::Image;
        }
    }
    refreshItem(index);
    if (doc.state == Document::State::Failed && !entry.restored)
        Q_EMIT loadFailed(doc.error);
    else if (doc.state != Document::State::Failed)
        Q_EMIT documentLoaded(doc);
    if (list_->currentRow() == index)
        showPreview(index);
    refreshSummary();
    Q_EMIT documentsEdited();
    if (before != entry.problem || entry.problem != Problem::None)
        Q_EMIT problemsChanged();
    updateBusy();
}

void DocumentsPane::setDocuments(const QList<ChatDocument>& documents) {
    const bool hadProblems = std::any_of(entries_.cbegin(), entries_.cend(),
                                         [](const Entry& e) { return e.problem != Problem::None; });
    {
        const QSignalBlocker block(list_);
        list_->clear();
    }
    documents_.clear();
    progress_.clear();
    entries_.clear();
    citedPage_ = 0;
    for (const ChatDocument& d : documents)
        startLoad(d.path, d, true);
    list_->setCurrentRow(list_->count() > 0 ? 0 : -1);
    showPreview(list_->currentRow());
    refreshSummary();
    updateBusy();
    if (hadProblems)
        Q_EMIT problemsChanged();
}

QList<ChatDocument> DocumentsPane::chatDocuments() const {
    QList<ChatDocument> out;
    for (const Entry& e : entries_)
        out << e.saved;
    return out;
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
    int pages = 0;
    for (const Document& d : documents_)
        if (d.state == Document::State::Ready)
            pages += d.pageCount;
    // Exact counts where the model's tokenizer counted the document, else estimates.
    qint64 tokens = 0;
    bool exact = true;
    for (const Document& d : documents_) {
        if (d.state != Document::State::Ready)
            continue;
        const auto it = exactTokens_.constFind(d.fingerprint);
        if (it != exactTokens_.cend() && d.kind == Document::Kind::Pdf) {
            tokens += *it;
        } else {
            tokens += d.estimatedTokens(charsPerToken_ > 0 ? charsPerToken_ : 4.0);
            exact = false;
        }
    }
    QString text =
        (documents_.size() == 1 ? tr("1 document") : tr("%1 documents").arg(documents_.size())) +
        (exact ? tr(" · %1 pages · %2 tokens") : tr(" · %1 pages · ~%2 tokens"))
            .arg(pages)
            .arg(QLocale().toString(tokens));
    if (contextLimit_ > 0) {
        // Leave room for the question and the answer.
        const bool fits = tokens + 1024 <= contextLimit_;
        text += fits ? tr("\nfits in the %1-token context").arg(QLocale().toString(contextLimit_))
                     : tr("\nlonger than the %1-token context: the pages that go in are chosen "
                          "for each question and named on it")
                           .arg(QLocale().toString(contextLimit_));
    }
    summary_->setText(text);
}

qint64 DocumentsPane::estimatedTokens() const {
    qint64 tokens = 0;
    for (const Document& d : documents_)
        if (d.state == Document::State::Ready)
            tokens += d.estimatedTokens(charsPerToken_ > 0 ? charsPerToken_ : 4.0);
    return tokens;
}

void DocumentsPane::setCharsPerToken(double ratio) {
    if (qAbs(ratio - charsPerToken_) < 0.01)
        return;
    charsPerToken_ = ratio;
    for (int i = 0; i < documents_.size(); ++i)
        refreshItem(i);
    if (!documents_.isEmpty())
        refreshSummary();
}

void DocumentsPane::setContextLimit(qint64 tokens) {
    contextLimit_ = tokens;
    if (!documents_.isEmpty())
        refreshSummary();
}

int DocumentsPane::currentRow() const {
    return list_->currentRow();
}

bool DocumentsPane::showPage(int page) {
    auto hasPage = [&](int row) {
        const Document& d = documents_[row];
        return d.state == Document::State::Ready && d.kind == Document::Kind::Pdf && page >= 1 &&
               page <= d.pageCount;
    };
    int row = list_->currentRow();
    if (row < 0 || !hasPage(row)) {
        row = -1;
        for (int i = 0; i < documents_.size() && row < 0; ++i)
            if (hasPage(i))
                row = i;
    }
    if (row < 0)
        return false;
    return showPage(row, page);
}

bool DocumentsPane::showPage(int row, int page) {
    if (row < 0 || row >= documents_.size())
        return false;
    const Document& d = documents_[row];
    if (d.state != Document::State::Ready || d.kind != Document::Kind::Pdf || page < 1 ||
        page > d.pageCount)
        return false;
    pendingPage_ = page; // applied once the preview shows this document
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
    if (preview_->currentWidget() != pdfView_ || row < 0 || row >= documents_.size()) {
        pageLabel_->hide();
        return;
    }
    const int page = previewPage();
    QString text = tr("Page %1 of %2").arg(page).arg(documents_[row].pageCount);
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
    const Document& d = documents_[row];
    QString detail;
    switch (d.state) {
    case Document::State::Loading:
        detail = d.pageCount > 0 ? tr("reading page %1 of %2…").arg(progress_[row]).arg(d.pageCount)
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
                         .arg(d.estimatedTokens(charsPerToken_ > 0 ? charsPerToken_ : 4.0));
        else
            detail = (d.pageCount == 1 ? tr("1 page") : tr("%1 pages").arg(d.pageCount)) +
                     (tokenLines_.contains(d.fingerprint)
                          ? QStringLiteral(" · ") + tokenLines_.value(d.fingerprint)
                          : tr(" · ~%1 tokens")
                                .arg(QLocale().toString(d.estimatedTokens(
                                    charsPerToken_ > 0 ? charsPerToken_ : 4.0)))) +
                     (d.pagesWithoutText() ? tr(" · %1 without text").arg(d.pagesWithoutText())
                                           : QString()) +
                     (d.pagesWithoutText() && row < entries_.size() &&
                              !entries_[row].saved.readScannedPages
                          ? tr(" (not read as images)")
                          : QString());
        break;
    }
    if (row < entries_.size()) {
        if (!entries_[row].saved.pinnedPages.isEmpty())
            detail += tr(" · pinned: %1").arg(entries_[row].saved.pinnedPages);
        if (entries_[row].problem == Problem::Missing)
            detail = tr("missing: %1 (right-click → Locate…)").arg(d.path);
        else if (entries_[row].problem == Problem::Changed)
            detail += tr(" · changed since it was added (right-click → Locate…)");
    }
    if (const QString ocr = ocrLine(row); !ocr.isEmpty())
        detail += QLatin1Char('\n') + ocr;
    if (d.state == Document::State::Ready && !readingStatus_.value(d.fingerprint).isEmpty())
        detail += QLatin1Char('\n') + readingStatus_.value(d.fingerprint);
    QListWidgetItem* item = list_->item(row);
    item->setText(QStringLiteral("%1. ").arg(row + 1) + d.title + QLatin1Char('\n') + detail);
    item->setToolTip(d.path);
    const bool bad = d.state == Document::State::Failed ||
                     (row < entries_.size() && entries_[row].problem != Problem::None);
    item->setForeground(bad ? QBrush(Qt::darkRed) : QBrush());
    if (!d.thumbnail.isNull())
        item->setIcon(QIcon(QPixmap::fromImage(d.thumbnail)));
}

void DocumentsPane::setReadingStatus(const QString& fingerprint, const QString& text) {
    if (readingStatus_.value(fingerprint) == text)
        return;
    readingStatus_.insert(fingerprint, text);
    for (int i = 0; i < documents_.size(); ++i)
        if (documents_[i].fingerprint == fingerprint)
            refreshItem(i);
}

void DocumentsPane::setExactTokens(const QString& fingerprint, qint64 tokens) {
    exactTokens_.insert(fingerprint, tokens);
    if (!documents_.isEmpty())
        refreshSummary();
}

void DocumentsPane::setTokenLine(const QString& fingerprint, const QString& text) {
    tokenLines_.insert(fingerprint, text);
    for (int i = 0; i < documents_.size(); ++i)
        if (documents_[i].fingerprint == fingerprint)
            refreshItem(i);
}

QString DocumentsPane::emptyHint() const {
    return tr("Open a PDF report or a chart image (File → Open document…), or drop files here.");
}

void DocumentsPane::showPreview(int row) {
    if (row < 0 || row >= documents_.size()) {
        // Nothing to show: the hint, not the last document's "Opening …" (a preview still
        // opening for it is dropped when it arrives).
        requestedPdf_.clear();
        emptyLabel_->setText(emptyHint());
        preview_->setCurrentWidget(emptyLabel_);
        updatePageLabel();
        return;
    }
    const Document& d = documents_[row];
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
        pendingPage_ = 0;
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
        if (row >= 0 && row < documents_.size() && documents_[row].path == path) {
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
