#include "core/documents/document_ocr.h"

#include "core/ocr/script_detect.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QSet>

#include <algorithm>

namespace folio::ui {

namespace {

QString tr(const char* text, int n = -1) {
    return QCoreApplication::translate("folio::ui::DocumentOcr", text, nullptr, n);
}

} // namespace

void applyOcrOutcome(Document& document, const ocr::PageOutcome& outcome) {
    const int page = outcome.page;
    if (page < 0 || page >= document.pageTexts.size() ||
        outcome.error.kind == ocr::OcrErrorKind::Cancelled)
        return;
    while (document.pageOrigins.size() < document.pageTexts.size())
        document.pageOrigins.append(PageOrigin{});
    PageOrigin& origin = document.pageOrigins[page];
    if (outcome.error) {
        origin.source = PageOrigin::Source::OcrFailed;
        origin.error = outcome.error.message;
        return;
    }
    // Tesseract spaces Chinese characters apart; the page's own text has no such spaces.
    document.pageTexts[page] = ocr::joinCjkSpaces(outcome.ocr.text);
    origin.source = PageOrigin::Source::Ocr;
    origin.confidence = outcome.ocr.meanConfidence;
    origin.languages = outcome.ocr.languages;
    origin.error.clear();
    document.pageWords.insert(page, outcome.ocr.words);
}

QList<int> pagesToRead(const Document& document) {
    QList<int> pages = document.pagesWithSource(PageOrigin::Source::OcrPending);
    pages += document.pagesWithSource(PageOrigin::Source::OcrFailed);
    std::sort(pages.begin(), pages.end());
    return pages;
}

ocr::OcrJob ocrJobFor(const Document& document, const QString& languages, const QString& cacheDir) {
    ocr::OcrJob job;
    job.pdfPath = document.path;
    job.fingerprint = document.fingerprint;
    job.pages = pagesToRead(document);
    job.languages = {languages.isEmpty() ? QStringLiteral("auto") : languages};
    job.languageHint = document.scriptHint;
    job.cacheDir = cacheDir;
    return job;
}

QString ocrLanguageName(const QString& languages) {
    QStringList names;
    for (const QString& l : languages.split(QLatin1Char('+'), Qt::SkipEmptyParts)) {
        if (l == QLatin1String("eng"))
            names << tr("English");
        else if (l == QLatin1String("chi_sim"))
            names << tr("Chinese (Simplified)");
        else if (l == QLatin1String("auto"))
            names << tr("automatic");
        else
            names << l;
    }
    return names.join(QStringLiteral(" + "));
}

QString ocrSummary(const Document& document) {
    const QList<int> pages = document.pagesWithSource(PageOrigin::Source::Ocr);
    if (pages.isEmpty())
        return {};
    double confidence = 0;
    QStringList languages;
    for (int page : pages) {
        const PageOrigin o = document.origin(page);
        confidence += o.confidence;
        for (const QString& l : o.languages.split(QLatin1Char('+'), Qt::SkipEmptyParts))
            if (!languages.contains(l))
                languages << l;
    }
    confidence /= pages.size();
    const QString how = tr("%1, mean confidence %2%")
                            .arg(ocrLanguageName(languages.join(QLatin1Char('+'))))
                            .arg(qRound(confidence));
    if (pages.size() == 1)
        return tr("page %1 read with OCR (%2)").arg(pages.first() + 1).arg(how);
    return tr("%1 pages read with OCR (%2)").arg(pages.size()).arg(how);
}

QString readScannedPagesNow(Document& document, const QString& languages,
                            const std::function<void(int, int, double)>& progress) {
    if (pagesToRead(document).isEmpty())
        return QString();
    ocr::OcrRunner runner;
    QEventLoop loop;
    QObject::connect(&runner, &ocr::OcrRunner::pageFinished,
                     [&document](const ocr::PageOutcome& o) { applyOcrOutcome(document, o); });
    QObject::connect(&runner, &ocr::OcrRunner::progress,
                     [&progress](int done, int total, double eta) {
                         if (progress)
                             progress(done, total, eta);
                     });
    bool finished = false; // also when the runner finishes inside start()
    QObject::connect(&runner, &ocr::OcrRunner::finished, [&] {
        finished = true;
        loop.quit();
    });
    const ocr::OcrError error = runner.start(ocrJobFor(document, languages, QString()));
    if (error)
        return error.message;
    if (!finished)
        loop.exec();
    return QString();
}

} // namespace folio::ui
