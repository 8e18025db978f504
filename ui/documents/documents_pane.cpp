#include "documents/documents_pane.h"

#include "documents/document_loader.h"

#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QMenu>
#include <QMimeData>
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
    setAcceptDrops(true);
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
    connect(list_, &QListWidget::currentRowChanged, this, &DocumentsPane::showPreview);

    preview_ = new QStackedWidget(splitter);
    emptyLabel_ = new QLabel(tr("Open a PDF report or a chart image (File → Open document…), "
                                "or drop files here."),
                             preview_);
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
    preview_->addWidget(emptyLabel_);
    preview_->addWidget(imageLabel_);
    preview_->addWidget(pdfView_);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 3);
    layout->addWidget(splitter, 1);

    summary_ = new QLabel(tr("No documents"), this);
    summary_->setObjectName(QStringLiteral("documentsSummary"));
    layout->addWidget(summary_);
}

void DocumentsPane::openFiles(const QStringList& paths) {
    for (const QString& path : paths) {
        if (!isSupportedDocument(path)) {
            Q_EMIT loadFailed(tr("%1: unsupported file type (PDF, PNG, JPEG, BMP, GIF)")
                                  .arg(QFileInfo(path).fileName()));
            continue;
        }
        Document placeholder;
        placeholder.path = QFileInfo(path).absoluteFilePath();
        placeholder.title = QFileInfo(path).fileName();
        const int index = documents_.size();
        documents_.append(placeholder);
        progress_.append(0);
        list_->addItem(QString());
        refreshItem(index);
        if (pending_++ == 0)
            Q_EMIT busyChanged(true);
        auto* watcher = new QFutureWatcher<Document>(this);
        connect(watcher, &QFutureWatcher<Document>::progressValueChanged, this,
                [this, watcher, index](int done) {
                    progress_[index] = done;
                    if (documents_[index].state == Document::State::Loading) {
                        documents_[index].pageCount = watcher->progressMaximum();
                        refreshItem(index);
                    }
                });
        connect(watcher, &QFutureWatcher<Document>::finished, this, [this, watcher, index] {
            onLoaded(index, watcher->result());
            watcher->deleteLater();
        });
        watcher->setFuture(loadDocumentAsync(path));
    }
    if (list_->currentRow() < 0 && list_->count() > 0)
        list_->setCurrentRow(0);
}

void DocumentsPane::onLoaded(int index, const Document& doc) {
    documents_[index] = doc;
    refreshItem(index);
    if (doc.state == Document::State::Failed)
        Q_EMIT loadFailed(doc.error);
    else
        Q_EMIT documentLoaded(doc);
    if (list_->currentRow() == index)
        showPreview(index);
    refreshSummary();
    if (--pending_ == 0)
        Q_EMIT busyChanged(false);
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
    const qint64 tokens = estimatedTokens();
    QString text =
        (documents_.size() == 1 ? tr("1 document") : tr("%1 documents").arg(documents_.size())) +
        tr(" · %1 pages · ~%2 tokens").arg(pages).arg(QLocale().toString(tokens));
    if (contextLimit_ > 0) {
        // Leave room for the question and the answer.
        const bool fits = tokens + 1024 <= contextLimit_;
        text += fits ? tr("\nfits in the %1-token context").arg(QLocale().toString(contextLimit_))
                     : tr("\ntoo long for the %1-token context: answers will miss pages")
                           .arg(QLocale().toString(contextLimit_));
        summary_->setStyleSheet(fits ? QString() : QStringLiteral("color: #a33"));
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
    pendingPage_ = page; // applied once the preview shows this document
    if (list_->currentRow() != row)
        list_->setCurrentRow(row);
    else
        showPreview(row);
    return true;
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
                                           : QString());
        break;
    }
    if (d.state == Document::State::Ready && !readingStatus_.value(d.fingerprint).isEmpty())
        detail += QLatin1Char('\n') + readingStatus_.value(d.fingerprint);
    QListWidgetItem* item = list_->item(row);
    item->setText(d.title + QLatin1Char('\n') + detail);
    item->setToolTip(d.path);
    item->setForeground(d.state == Document::State::Failed ? QBrush(Qt::darkRed) : QBrush());
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

void DocumentsPane::setTokenLine(const QString& fingerprint, const QString& text) {
    tokenLines_.insert(fingerprint, text);
    for (int i = 0; i < documents_.size(); ++i)
        if (documents_[i].fingerprint == fingerprint)
            refreshItem(i);
}

void DocumentsPane::showPreview(int row) {
    if (row < 0 || row >= documents_.size()) {
        preview_->setCurrentWidget(emptyLabel_);
        return;
    }
    const Document& d = documents_[row];
    if (d.state != Document::State::Ready) {
        emptyLabel_->setText(d.state == Document::State::Loading ? tr("Loading %1…").arg(d.title)
                                                                 : d.error);
        preview_->setCurrentWidget(emptyLabel_);
        return;
    }
    if (d.kind == Document::Kind::Image) {
        imageLabel_->setPixmap(QPixmap::fromImage(d.preview)); // scaled by the loader
        preview_->setCurrentWidget(imageLabel_);
    } else {
        // The preview has its own QPdfDocument, opened in the thread pool.
        if (shownPdf_ == d.path) {
            preview_->setCurrentWidget(pdfView_);
            jumpToPendingPage();
        } else if (requestedPdf_ != d.path) {
            loadPdfPreview(d.path);
        }
    }
}

void DocumentsPane::jumpToPendingPage() {
    if (pendingPage_ <= 0)
        return;
    pdfView_->pageNavigator()->jump(pendingPage_ - 1, QPointF(), pdfView_->zoomFactor());
    pendingPage_ = 0;
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

void DocumentsPane::dragEnterEvent(QDragEnterEvent* event) {
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void DocumentsPane::dropEvent(QDropEvent* event) {
    QStringList paths;
    for (const QUrl& url : event->mimeData()->urls())
        if (url.isLocalFile())
            paths << url.toLocalFile();
    if (!paths.isEmpty())
        Q_EMIT filesDropped(paths); // the window opens them (and remembers them as recent)
    event->acceptProposedAction();
}

} // namespace folio::ui
