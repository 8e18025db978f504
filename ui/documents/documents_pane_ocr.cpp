// DocumentsPane: OCR of the documents' scanned pages (issue #46 §1) as the pane shows it — the
// row's progress and ETA, where the text came from, the context menu's languages, stop and
// read again, and the preview's document for Find. The reading itself is LoadedDocuments'.
#include "documents/documents_pane.h"

#include "core/documents/document_ocr.h"
#include "core/documents/loaded_documents.h"
#include "core/documents/ocr_languages.h"

#include <QActionGroup>
#include <QListWidget>
#include <QMenu>
#include <QPdfView>

#include <cmath>

namespace folio::ui {

namespace {

QString etaText(double seconds) {
    if (seconds < 0)
        return {};
    if (seconds < 60)
        return DocumentsPane::tr("about %1 s left").arg(std::max(1, int(std::ceil(seconds))));
    return DocumentsPane::tr("about %1 min left").arg(int(std::ceil(seconds / 60)));
}

} // namespace

void DocumentsPane::onOcrProgress(const QString& path, int done, int total, double etaSeconds) {
    QString line = tr("OCR: %1 of %2 pages").arg(done).arg(total);
    if (const QString eta = etaText(etaSeconds); !eta.isEmpty() && done < total)
        line += QStringLiteral(" · ") + eta;
    ocrProgress_.insert(path, line);
    ocrProblem_.remove(path);
    for (int i = 0; i < documents_.size(); ++i)
        if (documents_[i].path == path)
            refreshItem(i);
}

bool DocumentsPane::showUpdatedDocument(const QString& path, const Document& doc) {
    bool shown = false;
    for (int i = 0; i < documents_.size(); ++i) {
        if (documents_[i].path != path || documents_[i].state != Document::State::Ready ||
            documents_[i].fingerprint != doc.fingerprint)
            continue;
        documents_[i] = doc;
        refreshItem(i);
        shown = true;
    }
    updatePreviewText();
    return shown;
}

void DocumentsPane::onDocumentUpdated(const QString& path, const Document& doc) {
    showUpdatedDocument(path, doc);
}

void DocumentsPane::onOcrFinished(const QString& path, const Document& doc, bool cancelled,
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
        refreshSummary();
        Q_EMIT documentTextChanged(doc);
    }
}

QString DocumentsPane::ocrLine(int row) const {
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

QString DocumentsPane::ocrLanguages(int row) const {
    if (row < 0 || row >= documents_.size())
        return QStringLiteral("auto");
    return savedOcrLanguages(documents_[row].fingerprint);
}

void DocumentsPane::setOcrLanguages(int row, const QString& languages) {
    if (row < 0 || row >= documents_.size() || !ocrLanguageChoices().contains(languages))
        return;
    const Document& d = documents_[row];
    if (d.state != Document::State::Ready || ocrLanguages(row) == languages)
        return;
    ocrProblem_.remove(d.path);
    loaded_->setOcrLanguages(d.path, languages);
    refreshItem(row);
}

void DocumentsPane::stopOcr(int row) {
    if (row >= 0 && row < documents_.size())
        loaded_->cancelOcr(documents_[row].path);
}

void DocumentsPane::readOcr(int row) {
    if (row < 0 || row >= documents_.size())
        return;
    ocrProblem_.remove(documents_[row].path);
    loaded_->readOcr(documents_[row].path);
    refreshItem(row);
}

void DocumentsPane::addOcrActions(QMenu& menu, int row) {
    if (row < 0 || row >= documents_.size())
        return;
    const Document& d = documents_[row];
    if (d.state != Document::State::Ready || d.kind != Document::Kind::Pdf ||
        d.pagesNeedingOcr().isEmpty())
        return;
    const bool running = loaded_->isReadingOcr(d.path);
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
    if (row >= 0 && row < documents_.size() && documents_[row].path == shownPdf_)
        pdfView_->setProperty(kPreviewDocumentProperty, QVariant::fromValue(documents_[row]));
    else
        pdfView_->setProperty(kPreviewDocumentProperty, QVariant());
}

} // namespace folio::ui
