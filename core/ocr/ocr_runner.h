#pragma once
// Many pages of one PDF read in the background: `threads` workers (2 by default) in the
// runner's own thread pool, each with its own QPdfDocument and TesseractReader (Tesseract's
// instances are not shareable between threads). Pages already in the cache are taken from it;
// new readings are stored. With auto languages the document's script, once its first pages are
// read with both models, picks the model for the rest (one model reads its script faster and as
// well). Progress (pages done, ETA from the pages actually read) and each
// page's outcome arrive as signals in the runner's thread; cancel() stops the workers between
// pages and Tesseract within one, and keeps what was read (cached pages stay cached).

#include "core/ocr/ocr_types.h"
#include "core/ocr/page_raster.h"

#include <QList>
#include <QObject>
#include <QString>

#include <memory>

namespace folio::ocr {

struct OcrJob {
    QString pdfPath;
    QString fingerprint; // the document's (documentFingerprint); "" : computed at start
    QList<int> pages;    // 0-based, read in this order
    LanguageChoice languages;
    // Auto languages: the document's script when known (from its text layer, languagesForText),
    // else found from the first pages read with both models and used for the rest.
    QString languageHint;
    bool useCache = true;
    QString cacheDir; // "" : defaultOcrCacheDir()
    int threads = 2;
    RasterParams raster;
};

struct PageOutcome {
    int page = -1; // 0-based
    PageOcr ocr;
    OcrError error;         // set when the page could not be read (ocr empty)
    bool fromCache = false; // taken from the cache, not read now
    QString cacheNote;      // a damaged entry found (and read again), or a failed store
};

class OcrRunner : public QObject {
    Q_OBJECT
public:
    explicit OcrRunner(QObject* parent = nullptr);
    ~OcrRunner() override; // cancels and waits for the workers

    // Starts reading; an error (already running, unreadable PDF, missing language data) when
    // it cannot start. Checks the languages before any page is read.
    OcrError start(const OcrJob& job);
    void cancel();
    bool isRunning() const;
    // Waits for the workers (the signals still need the runner's event loop to arrive).
    bool wait(int msecs = -1);

signals:
    void pageFinished(const folio::ocr::PageOutcome& outcome);
    // `etaSeconds` < 0 while unknown (no page read by Tesseract yet).
    void progress(int done, int total, double etaSeconds);
    void finished(bool cancelled);

private:
    struct State;
    std::shared_ptr<State> state_;
};

} // namespace folio::ocr

Q_DECLARE_METATYPE(folio::ocr::PageOutcome)
