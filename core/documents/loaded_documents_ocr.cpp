// LoadedDocuments: OCR of the pages without a usable text layer (issue #46 §1) — started when a
// PDF has been read, one runner per document, pages applied to the kept document as they
// arrive, cancelled on request; the rest of the class (reading, keeping) is in
// loaded_documents.cpp.
#include "core/documents/document_ocr.h"
#include "core/documents/loaded_documents.h"
#include "core/documents/ocr_languages.h"

#include "core/ocr/ocr_runner.h"

#include <QFileInfo>

namespace folio::ui {

bool LoadedDocuments::readOcr(const QString& path) {
    if (ocr_.contains(path))
        return true;
    const auto it = kept_.constFind(path);
    if (it == kept_.cend() || pagesToRead(it->document).isEmpty())
        return false;
    startOcr(path, it->document);
    return true;
}

void LoadedDocuments::cancelOcr(const QString& path) {
    if (const auto it = ocr_.constFind(path); it != ocr_.cend())
        it->runner->cancel();
}

QString LoadedDocuments::ocrLanguages(const QString& path) const {
    return ocrLanguages_.value(path, QStringLiteral("auto"));
}

void LoadedDocuments::setOcrLanguages(const QString& path, const QString& choice) {
    const QString languages = validOcrLanguages(choice);
    if (ocrLanguages(path) == languages)
        return;
    if (languages == QLatin1String("auto"))
        ocrLanguages_.remove(path);
    else
        ocrLanguages_.insert(path, languages);
    auto it = kept_.find(path);
    if (it == kept_.end())
        return; // read later: its OCR starts with them
    // Read again with the new languages: every page that needed OCR waits for it again (its
    // earlier text stays until the new one arrives; the cache keeps readings per language).
    if (const auto running = ocr_.find(path); running != ocr_.end()) {
        running->runner->disconnect(this);
        running->runner->cancel();
        running->runner->deleteLater();
        it->document = running->document;
        ocr_.erase(running);
    }
    for (PageOrigin& origin : it->document.pageOrigins)
        if (origin.needsOcr())
            origin.source = PageOrigin::Source::OcrPending;
    if (ocrEnabled_)
        startOcr(path, it->document);
}

void LoadedDocuments::startOcr(const QString& path, const Document& document) {
    auto* runner = new ocr::OcrRunner(this);
    OcrRead read;
    read.runner = runner;
    read.document = document;
    connect(runner, &ocr::OcrRunner::pageFinished, this,
            [this, path](const ocr::PageOutcome& outcome) { onOcrPage(path, outcome); });
    connect(runner, &ocr::OcrRunner::progress, this, [this, path](int done, int total, double eta) {
        Q_EMIT ocrProgress(path, done, total, eta);
    });
    connect(runner, &ocr::OcrRunner::finished, this,
            [this, path](bool cancelled) { onOcrFinished(path, cancelled); });
    const ocr::OcrJob job = ocrJobFor(document, ocrLanguages(path), ocrCacheDir_);
    const ocr::OcrError error = runner->start(job);
    if (error) {
        delete runner;
        Q_EMIT ocrFinished(path, document, false,
                           tr("%1: its scanned pages cannot be read with OCR: %2")
                               .arg(document.title, error.message));
        return;
    }
    ocr_.insert(path, read);
    Q_EMIT ocrProgress(path, 0, int(job.pages.size()), -1);
}

void LoadedDocuments::onOcrPage(const QString& path, const ocr::PageOutcome& outcome) {
    auto it = ocr_.find(path);
    if (it == ocr_.end())
        return;
    if (!outcome.fromCache && !outcome.error)
        ++ocrPagesRead_;
    applyOcrOutcome(it->document, outcome);
    if (outcome.error && outcome.error.kind != ocr::OcrErrorKind::Cancelled)
        it->problems << outcome.error.message;
    if (!outcome.cacheNote.isEmpty())
        it->problems << tr("OCR cache: %1").arg(outcome.cacheNote);
    // The kept document gets the page too, unless the file changed meanwhile.
    if (auto kept = kept_.find(path);
        kept != kept_.end() && kept->document.fingerprint == it->document.fingerprint) {
        applyOcrOutcome(kept->document, outcome);
        kept->chars += outcome.ocr.text.size();
    }
    Q_EMIT documentUpdated(path, it->document);
}

void LoadedDocuments::onOcrFinished(const QString& path, bool cancelled) {
    const auto it = ocr_.constFind(path);
    if (it == ocr_.cend())
        return;
    const OcrRead read = *it;
    ocr_.erase(it);
    read.runner->deleteLater();
    QString message;
    if (!read.problems.isEmpty())
        message = tr("%1: %2").arg(read.document.title, read.problems.join(QStringLiteral("; ")));
    Q_EMIT ocrFinished(path, read.document, cancelled, message);
}

} // namespace folio::ui
