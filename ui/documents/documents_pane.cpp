#include "documents/documents_pane.h"

#include "documents/document_loader.h"

#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QMimeData>
#include <QPdfDocument>
#include <QPdfView>
#include <QPushButton>
#include <QSplitter>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace folio::ui {

DocumentsPane::DocumentsPane(QWidget* parent) : QWidget(parent) {
    setAcceptDrops(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);

    auto* openButton = new QPushButton(tr("Open document…"), this);
    openButton->setObjectName(QStringLiteral("openDocumentButton"));
    connect(openButton, &QPushButton::clicked, this, &DocumentsPane::openRequested);
    layout->addWidget(openButton);

    auto* splitter = new QSplitter(Qt::Vertical, this);
    list_ = new QListWidget(splitter);
    list_->setObjectName(QStringLiteral("documentList"));
    list_->setWordWrap(true);
    list_->setAlternatingRowColors(true);
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
        list_->addItem(QString());
        refreshItem(index);
        if (pending_++ == 0)
            Q_EMIT busyChanged(true);
        auto* watcher = new QFutureWatcher<Document>(this);
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

    int pages = 0, tokens = 0;
    for (const Document& d : documents_) {
        if (d.state == Document::State::Ready) {
            pages += d.pageCount;
            tokens += d.estimatedTokens();
        }
    }
    summary_->setText(
        (documents_.size() == 1 ? tr("1 document") : tr("%1 documents").arg(documents_.size())) +
        tr(" · %1 pages · ~%2 tokens").arg(pages).arg(QLocale().toString(tokens)));
    if (--pending_ == 0)
        Q_EMIT busyChanged(false);
}

void DocumentsPane::refreshItem(int row) {
    const Document& d = documents_[row];
    QString detail;
    switch (d.state) {
    case Document::State::Loading:
        detail = tr("loading…");
        break;
    case Document::State::Failed:
        detail = d.error;
        break;
    case Document::State::Ready:
        if (d.kind == Document::Kind::Image)
            detail = tr("image %1×%2 · ~%3 tokens")
                         .arg(d.imageSize.width())
                         .arg(d.imageSize.height())
                         .arg(d.estimatedTokens());
        else
            detail = (d.pageCount == 1 ? tr("1 page") : tr("%1 pages").arg(d.pageCount)) +
                     tr(" · ~%1 tokens").arg(QLocale().toString(d.estimatedTokens())) +
                     (d.pagesWithoutText() ? tr(" · %1 without text").arg(d.pagesWithoutText())
                                           : QString());
        break;
    }
    QListWidgetItem* item = list_->item(row);
    item->setText(d.title + QLatin1Char('\n') + detail);
    item->setToolTip(d.path);
    item->setForeground(d.state == Document::State::Failed ? QBrush(Qt::darkRed) : QBrush());
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
        QPixmap pixmap(d.path);
        imageLabel_->setPixmap(
            pixmap.scaled(QSize(480, 480), Qt::KeepAspectRatio, Qt::SmoothTransformation));
        preview_->setCurrentWidget(imageLabel_);
    } else {
        // The preview has its own QPdfDocument (GUI thread); the text was read by the loader.
        pdfDocument_->close();
        pdfDocument_->load(d.path);
        preview_->setCurrentWidget(pdfView_);
    }
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
    openFiles(paths);
    event->acceptProposedAction();
}

} // namespace folio::ui
