#include "core/ocr/ocr_runner.h"

#include "core/ocr/ocr_cache.h"
#include "core/ocr/script_detect.h"
#include "core/ocr/tesseract_reader.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QMutex>
#include <QPdfDocument>
#include <QThreadPool>

#include <algorithm>
#include <atomic>

namespace folio::ocr {

struct OcrRunner::State {
    OcrJob job;
    QThreadPool pool;
    std::atomic_bool cancel{false};
    std::atomic_bool running{false};
    std::atomic_int next{0};
    std::atomic_int done{0};
    std::atomic_int workersLeft{0};
    QMutex timing; // guards read and readSeconds
    int read = 0;  // pages read by Tesseract (not from the cache)
    double readSeconds = 0;
    QElapsedTimer clock;
    QMutex script;        // guards hint and scriptSample
    QString hint;         // the document's script (auto languages), "" while unknown
    QString scriptSample; // text of the pages read so far, for the hint
};

namespace {

// The document's script from the pages read so far: a page read with both models adds its
// text; one that needed both models after the hint's alone makes the document mixed.
void learnScript(QMutex& lock, QString& hint, QString& sample, const PageOcr& ocr, bool usedHint) {
    constexpr qsizetype kSampleChars = 4000;
    QMutexLocker locker(&lock);
    if (usedHint && ocr.languages == QLatin1String("eng+chi_sim")) {
        hint = ocr.languages;
        return;
    }
    if (!hint.isEmpty() || ocr.text.trimmed().isEmpty())
        return;
    sample += ocr.text.left(kSampleChars);
    hint = languagesForText(sample);
}

PageOutcome readPage(const OcrJob& job, const OcrCache* cache, QPdfDocument& pdf,
                     TesseractReader& reader, int page, const std::atomic_bool& cancel,
                     const QString& hint) {
    PageOutcome out;
    out.page = page;
    const QString langKey =
        job.languages.isAuto() ? QStringLiteral("auto") : job.languages.languages;
    if (cache) {
        if (auto hit = cache->load(job.fingerprint, page, langKey, &out.cacheNote)) {
            out.ocr = *hit;
            out.fromCache = true;
            return out;
        }
    }
    const RasterPage raster = renderPageGrey(pdf, page, job.raster);
    if (raster.grey.isNull()) {
        out.error = {OcrErrorKind::BadDocument, raster.error};
        return out;
    }
    ReadResult r = reader.read(raster.grey, raster.dpi, job.languages, &cancel, hint);
    if (r.error) {
        out.error = r.error;
        if (out.error.kind != OcrErrorKind::Cancelled)
            out.error.message = QStringLiteral("page %1: %2").arg(page + 1).arg(r.error.message);
        return out;
    }
    out.ocr = std::move(r.page);
    if (cache) {
        const QString e = cache->store(job.fingerprint, page, langKey, out.ocr);
        if (!e.isEmpty())
            out.cacheNote = out.cacheNote.isEmpty() ? e : out.cacheNote + QStringLiteral("; ") + e;
    }
    return out;
}

} // namespace

OcrRunner::OcrRunner(QObject* parent) : QObject(parent) {
    qRegisterMetaType<folio::ocr::PageOutcome>();
}

OcrRunner::~OcrRunner() {
    if (state_) {
        state_->cancel = true;
        state_->pool.waitForDone();
    }
}

bool OcrRunner::isRunning() const {
    return state_ && state_->running.load();
}

void OcrRunner::cancel() {
    if (state_)
        state_->cancel = true;
}

bool OcrRunner::wait(int msecs) {
    return !state_ || state_->pool.waitForDone(msecs);
}

OcrError OcrRunner::start(const OcrJob& jobIn) {
    if (isRunning())
        return {OcrErrorKind::EngineFailed, QStringLiteral("OCR is already running")};
    OcrJob job = jobIn;
    if (!validLanguageSpec(job.languageHint, nullptr) || job.languageHint == QLatin1String("auto"))
        job.languageHint.clear();
    const OcrError langError = TesseractReader::checkLanguages(
        job.languages.isAuto() ? QStringLiteral("eng+chi_sim") : job.languages.languages);
    if (langError)
        return langError;
    {
        QPdfDocument probe;
        if (probe.load(job.pdfPath) != QPdfDocument::Error::None)
            return {
                OcrErrorKind::BadDocument,
                QStringLiteral("%1: cannot open the PDF").arg(QFileInfo(job.pdfPath).fileName())};
        for (const int p : job.pages)
            if (p < 0 || p >= probe.pageCount())
                return {OcrErrorKind::BadDocument, QStringLiteral("%1: no page %2 (it has %3)")
                                                       .arg(QFileInfo(job.pdfPath).fileName())
                                                       .arg(p + 1)
                                                       .arg(probe.pageCount())};
    }
    if (job.useCache && job.fingerprint.isEmpty())
        job.fingerprint = documentFingerprint(job.pdfPath);
    if (job.useCache && job.cacheDir.isEmpty())
        job.cacheDir = defaultOcrCacheDir();

    if (state_)
        state_->pool.waitForDone();
    auto state = std::make_shared<State>();
    state->job = job;
    state->hint = job.languageHint;
    state->running = true;
    const int workers = std::clamp(job.threads, 1, std::max(1, int(job.pages.size())));
    state->pool.setMaxThreadCount(workers);
    state->workersLeft = workers;
    state->clock.start();
    state_ = state;
    const int total = int(job.pages.size());
    if (total == 0) {
        state->running = false;
        QMetaObject::invokeMethod(
            this, [this] { emit finished(false); }, Qt::QueuedConnection);
        return {};
    }
    for (int w = 0; w < workers; ++w) {
        // `this` outlives the workers: the destructor waits for the pool. Signals are emitted
        // from the runner's thread (queued), so receivers never see a worker thread.
        state->pool.start([this, state, total] {
            TesseractReader::confineOpenMpToThisThread();
            const OcrJob& job = state->job;
            std::unique_ptr<OcrCache> cache;
            if (job.useCache)
                cache = std::make_unique<OcrCache>(job.cacheDir);
            QPdfDocument pdf;
            const bool opened = pdf.load(job.pdfPath) == QPdfDocument::Error::None;
            TesseractReader reader;
            for (;;) {
                if (state->cancel.load())
                    break;
                const int i = state->next.fetch_add(1);
                if (i >= total)
                    break;
                const int page = job.pages[i];
                QElapsedTimer pageClock;
                pageClock.start();
                PageOutcome out;
                if (!opened) {
                    out.page = page;
                    out.error = {OcrErrorKind::BadDocument,
                                 QStringLiteral("%1: cannot open the PDF")
                                     .arg(QFileInfo(job.pdfPath).fileName())};
                } else {
                    QString hint;
                    {
                        QMutexLocker lock(&state->script);
                        hint = state->hint;
                    }
                    out = readPage(job, cache.get(), pdf, reader, page, state->cancel, hint);
                    if (job.languages.isAuto() && !out.error)
                        learnScript(state->script, state->hint, state->scriptSample, out.ocr,
                                    !hint.isEmpty());
                }
                if (out.error.kind == OcrErrorKind::Cancelled)
                    break;
                const int doneNow = state->done.fetch_add(1) + 1;
                double eta = -1;
                {
                    QMutexLocker lock(&state->timing);
                    if (!out.fromCache && !out.error) {
                        ++state->read;
                        state->readSeconds += pageClock.nsecsElapsed() / 1e9;
                    }
                    if (state->read > 0) {
                        const double perPage = state->readSeconds / state->read;
                        eta = perPage * (total - doneNow) /
                              std::min(job.threads, std::max(1, total - doneNow));
                    }
                }
                if (doneNow == total)
                    eta = 0;
                QMetaObject::invokeMethod(
                    this,
                    [this, out, doneNow, total, eta] {
                        emit pageFinished(out);
                        emit progress(doneNow, total, eta);
                    },
                    Qt::QueuedConnection);
            }
            if (state->workersLeft.fetch_sub(1) == 1) {
                state->running = false;
                const bool cancelled = state->cancel.load() && state->done.load() < total;
                QMetaObject::invokeMethod(
                    this, [this, cancelled] { emit finished(cancelled); }, Qt::QueuedConnection);
            }
        });
    }
    return {};
}

} // namespace folio::ocr
