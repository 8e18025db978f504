// ChatDocuments: OCR of the documents' scanned pages (issue #46 §1) as the chat's list keeps
// it — each row's progress and ETA, where the text came from, the document's languages, stop
// and read again. The reading itself is LoadedDocuments'.
#include "core/documents/chat_documents.h"

#include "core/documents/document_ocr.h"
#include "core/documents/loaded_documents.h"
#include "core/documents/ocr_languages.h"

#include <cmath>

namespace folio::ui {

namespace {

QString etaText(double seconds) {
    if (seconds < 0)
        return {};
    if (seconds < 60)
        return ChatDocuments::tr("about %1 s left").arg(std::max(1, int(std::ceil(seconds))));
    return ChatDocuments::tr("about %1 min left").arg(int(std::ceil(seconds / 60)));
}

} // namespace

void ChatDocuments::onOcrProgress(const QString& path, int done, int total, double etaSeconds) {
    QString line = tr("OCR: %1 of %2 pages").arg(done).arg(total);
    if (const QString eta = etaText(etaSeconds); !eta.isEmpty() && done < total)
        line += QStringLiteral(" · ") + eta;
    ocrProgress_.insert(path, line);
    ocrProblem_.remove(path);
    refreshRowsOf(path);
}

bool ChatDocuments::showUpdatedDocument(const QString& path, const Document& doc) {
    bool shown = false;
    for (int i = 0; i < documents_.size(); ++i) {
        if (documents_[i].path != path || documents_[i].state != Document::State::Ready ||
            documents_[i].fingerprint != doc.fingerprint)
            continue;
        documents_[i] = doc;
        Q_EMIT rowChanged(i);
        shown = true;
    }
    return shown;
}

void ChatDocuments::onOcrFinished(const QString& path, const Document& doc, bool cancelled,
                                  const QString& message) {
    ocrProgress_.remove(path);
    if (!message.isEmpty())
        ocrProblem_.insert(path, message);
    const bool shown = showUpdatedDocument(path, doc);
    if (!message.isEmpty())
        Q_EMIT ocrMessage(message, true);
    else if (cancelled && shown)
        Q_EMIT ocrMessage(tr("%1: OCR stopped; the pages read so far are kept (right-click → "
                             "Read scanned pages with OCR to go on).")
                              .arg(doc.title),
                          false);
    if (shown) {
        Q_EMIT totalsChanged();
        Q_EMIT documentTextChanged(doc);
    }
}

QString ChatDocuments::ocrLine(int row) const {
    if (row < 0 || row >= documents_.size())
        return {};
    const Document& d = documents_[row];
    if (d.state != Document::State::Ready || d.kind != Document::Kind::Pdf)
        return {};
    if (const QString progress = ocrProgress_.value(d.path); !progress.isEmpty())
        return progress;
    QStringList parts;
    if (const QString summary = ocrSummary(d); !summary.isEmpty())
        parts << summary;
    const QList<int> failed = d.pagesWithSource(PageOrigin::Source::OcrFailed);
    if (!failed.isEmpty())
        parts << (failed.size() == 1 ? tr("OCR could not read page %1").arg(failed.first() + 1)
                                     : tr("OCR could not read %1 pages").arg(failed.size()));
    const QList<int> waiting = d.pagesWithSource(PageOrigin::Source::OcrPending);
    if (!waiting.isEmpty() && loaded_->ocrEnabled())
        parts << (waiting.size() == 1 ? tr("1 page not read with OCR yet")
                                      : tr("%1 pages not read with OCR yet").arg(waiting.size()));
    if (const QString problem = ocrProblem_.value(d.path); !problem.isEmpty() && failed.isEmpty())
        parts << problem;
    return parts.join(QStringLiteral(" · "));
}

QString ChatDocuments::ocrLanguages(int row) const {
    if (row < 0 || row >= entries_.size())
        return QStringLiteral("auto");
    return entries_[row].saved.ocrLanguages;
}

void ChatDocuments::setOcrLanguages(int row, const QString& languages) {
    if (row < 0 || row >= documents_.size() || !ocrLanguageChoices().contains(languages))
        return;
    const Document& d = documents_[row];
    if (d.state != Document::State::Ready || ocrLanguages(row) == languages)
        return;
    // The chat keeps the choice (its file); the document's OCR pages are read again with it.
    entries_[row].saved.ocrLanguages = languages;
    ocrProblem_.remove(d.path);
    loaded_->setOcrLanguages(d.path, languages);
    Q_EMIT rowChanged(row);
    Q_EMIT documentsEdited();
}

void ChatDocuments::stopOcr(int row) {
    if (row >= 0 && row < documents_.size())
        loaded_->cancelOcr(documents_[row].path);
}

void ChatDocuments::readOcr(int row) {
    if (row < 0 || row >= documents_.size())
        return;
    ocrProblem_.remove(documents_[row].path);
    loaded_->readOcr(documents_[row].path);
    Q_EMIT rowChanged(row);
}

} // namespace folio::ui
