#include "core/documents/loaded_documents.h"

#include "core/documents/document_loader.h"
#include "core/ocr/ocr_runner.h"

#include <QFileInfo>

namespace folio::ui {

namespace {

qint64 textChars(const Document& document) {
    qint64 chars = 0;
    for (const QString& page : document.pageTexts)
        chars += page.size();
    return chars;
}

} // namespace

LoadedDocuments::LoadedDocuments(QObject* parent) : QObject(parent) {
    ocrEnabled_ = qEnvironmentVariable("FOLIO_OCR").toLower() != QLatin1String("off");
}

LoadedDocuments::~LoadedDocuments() {
    for (const OcrRead& read : std::as_const(ocr_)) {
        read.runner->disconnect(this);
        delete read.runner; // cancels and waits for its workers
    }
    for (QFutureWatcher<Document>* watcher : std::as_const(reads_)) {
        watcher->disconnect(this);
        watcher->cancel();
        watcher->waitForFinished();
    }
}

std::optional<Document> LoadedDocuments::find(const QString& path) {
    auto it = kept_.find(path);
    if (it == kept_.end())
        return std::nullopt;
    const QFileInfo file(path);
    if (!file.exists() || file.lastModified() != it->modified || file.size() != it->size) {
        kept_.erase(it); // the file changed (or went): read again
        return std::nullopt;
    }
    it->lastUse = ++clock_;
    return it->document;
}

void LoadedDocuments::read(const QString& path) {
    if (reads_.contains(path))
        return;
    ++readsStarted_;
    // The file's state before reading: a change during the read is noticed at the next find.
    const QFileInfo file(path);
    const QDateTime modified = file.lastModified();
    const qint64 size = file.size();
    auto* watcher = new QFutureWatcher<Document>(this);
    reads_.insert(path, watcher);
    connect(watcher, &QFutureWatcher<Document>::progressValueChanged, this,
            [this, watcher, path](int done) {
                Q_EMIT progress(path, done, watcher->progressMaximum());
            });
    connect(
        watcher, &QFutureWatcher<Document>::finished, this, [this, watcher, path, modified, size] {
            reads_.remove(path);
            watcher->deleteLater();
            const bool cancelled = watcher->isCanceled() || watcher->future().resultCount() == 0;
            Document document;
            if (!cancelled) {
                document = watcher->result();
            } else {
                document.path = path;
                document.title = QFileInfo(path).fileName();
                document.state = Document::State::Failed;
                document.error = tr("%1: reading was cancelled").arg(document.title);
            }
            if (document.state == Document::State::Ready)
                keep(path, document, modified, size);
            Q_EMIT finished(path, document, cancelled);
            if (document.state == Document::State::Ready && ocrEnabled_ &&
                !document.pagesNeedingOcr().isEmpty())
                startOcr(path, document);
        });
    watcher->setFuture(loadDocumentAsync(path));
}

void LoadedDocuments::cancel(const QString& path) {
    if (QFutureWatcher<Document>* watcher = reads_.value(path))
        watcher->cancel();
}

void LoadedDocuments::keep(const QString& path, const Document& document, const QDateTime& modified,
                           qint64 size) {
    Kept kept;
    kept.document = document;
    kept.modified = modified;
    kept.size = size;
    kept.lastUse = ++clock_;
    kept.chars = textChars(document);
    kept_.insert(path, kept);
    trim();
}

void LoadedDocuments::trim() {
    qint64 total = 0;
    for (const Kept& k : std::as_const(kept_))
        total += k.chars;
    // The document kept last stays even when it alone passes the budget.
    while (total > budgetChars_ && kept_.size() > 1) {
        auto oldest = kept_.begin();
        for (auto it = kept_.begin(); it != kept_.end(); ++it)
            if (it->lastUse < oldest->lastUse)
                oldest = it;
        total -= oldest->chars;
        kept_.erase(oldest);
    }
}

} // namespace folio::ui
