#pragma once
// One page image read by Tesseract (its C++ API, TessBaseAPI). A TessBaseAPI is not shareable
// between threads: a TesseractReader belongs to one thread at a time and keeps one initialised
// instance per language list it has used (loading a language's model takes a while).

#include "core/ocr/ocr_types.h"

#include <QImage>
#include <QString>

#include <atomic>
#include <map>
#include <memory>

namespace tesseract {
class TessBaseAPI;
}

namespace folio::ocr {

struct ReadResult {
    PageOcr page;
    OcrError error; // when set, `page` is empty
};

class TesseractReader {
public:
    TesseractReader();
    ~TesseractReader();
    TesseractReader(const TesseractReader&) = delete;
    TesseractReader& operator=(const TesseractReader&) = delete;

    // Reads `image` (any format; converted to grey) scanned at `dpi`. Auto languages: with
    // `autoHint` (the document's script from its other pages: eng, chi_sim or eng+chi_sim;
    // script_detect.h) when given, else with eng+chi_sim, which reads both scripts; a page read
    // with one language at a low mean confidence (a page of the other script) is read again
    // with both. `cancel` (may be null) is polled while Tesseract works; a cancelled reading
    // returns OcrErrorKind::Cancelled.
    ReadResult read(const QImage& image, double dpi, const LanguageChoice& languages,
                    const std::atomic_bool* cancel = nullptr, const QString& autoHint = {});

    // Tesseract's LSTM layers start OpenMP teams of their own (a team per gate). With several
    // pages read at once (one reader per worker thread) those teams oversubscribe the cores and
    // spin: measured on 2 loaded cores, 2 workers read 0.14 pages/s with the teams, 0.29 alone.
    // Makes OpenMP regions started from the calling thread run on it alone (max-active-levels
    // 0, a per-thread setting since OpenMP 5.0): call it at the start of a worker thread.
    static void confineOpenMpToThisThread();

    // Where the language data is: $TESSDATA_PREFIX, else Debian's folder for Tesseract 5.
    static QString tessdataDir();
    // An error naming the Debian package of each language of `languages` ("eng+chi_sim") whose
    // traineddata is missing, or of a malformed list; none when all are there.
    static OcrError checkLanguages(const QString& languages);
    // Debian's package with a language's data: chi_sim -> tesseract-ocr-chi-sim.
    static QString debianPackage(const QString& language);

private:
    ReadResult readWith(const QImage& grey, double dpi, const QString& languages,
                        const std::atomic_bool* cancel);
    tesseract::TessBaseAPI* api(const QString& languages, OcrError* error);

    std::map<QString, std::unique_ptr<tesseract::TessBaseAPI>> apis_;
};

} // namespace folio::ocr
