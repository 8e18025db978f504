#include "core/ocr/tesseract_reader.h"

#include "core/ocr/script_detect.h"

#include <QDir>
#include <QFileInfo>

#include <tesseract/baseapi.h>
#include <tesseract/ocrclass.h>
#include <tesseract/resultiterator.h>

#include <algorithm>

#include <omp.h>

namespace folio::ocr {

namespace {

// Leptonica's and Tesseract's limits on an image side; below 3 pixels there is nothing to read.
constexpr int kMinSide = 3;
constexpr int kMaxSide = 32767;
const QString kBothScripts = QStringLiteral("eng+chi_sim");
// Measured: pages of the model's own script read at 91 to 96 mean confidence, a Chinese page read
// with eng alone at 18.
constexpr float kRereadBelowConfidence = 60;

QString takeText(char* text) {
    const QString s = text ? QString::fromUtf8(text) : QString();
    delete[] text;
    return s;
}

bool cancelRequested(void* flag, int /*words*/) {
    return flag && static_cast<const std::atomic_bool*>(flag)->load(std::memory_order_relaxed);
}

} // namespace

TesseractReader::TesseractReader() = default;

TesseractReader::~TesseractReader() {
    for (auto& [languages, api] : apis_)
        api->End();
}

void TesseractReader::confineOpenMpToThisThread() {
    omp_set_max_active_levels(0);
    omp_set_num_threads(1);
}

QString TesseractReader::tessdataDir() {
    const QString env = qEnvironmentVariable("TESSDATA_PREFIX");
    if (!env.isEmpty())
        return env;
    for (const char* dir : {"/usr/share/tesseract-ocr/5/tessdata",
                            "/usr/share/tesseract-ocr/4.00/tessdata", "/usr/share/tessdata"}) {
        if (QFileInfo(QString::fromLatin1(dir)).isDir())
            return QString::fromLatin1(dir);
    }
    return QStringLiteral("/usr/share/tesseract-ocr/5/tessdata");
}

QString TesseractReader::debianPackage(const QString& language) {
    return QStringLiteral("tesseract-ocr-") +
           language.toLower().replace(QLatin1Char('_'), QLatin1Char('-'));
}

OcrError TesseractReader::checkLanguages(const QString& languages) {
    QString message;
    if (languages.isEmpty() || languages == QLatin1String("auto") ||
        !validLanguageSpec(languages, &message)) {
        if (message.isEmpty())
            message = QStringLiteral("no OCR language given");
        return {OcrErrorKind::MissingLanguage, message};
    }
    const QDir dir(tessdataDir());
    QStringList missing, packages;
    for (const QString& language : languages.split(QLatin1Char('+'))) {
        if (!QFileInfo::exists(dir.filePath(language + QStringLiteral(".traineddata")))) {
            missing << language;
            packages << debianPackage(language);
        }
    }
    if (missing.isEmpty())
        return {};
    return {OcrErrorKind::MissingLanguage,
            QStringLiteral("no Tesseract language data for %1 in %2: install Debian's %3 "
                           "(sudo apt-get install %4)")
                .arg(missing.join(QStringLiteral(", ")), dir.path(),
                     packages.join(QStringLiteral(", ")), packages.join(QLatin1Char(' ')))};
}

tesseract::TessBaseAPI* TesseractReader::api(const QString& languages, OcrError* error) {
    const auto found = apis_.find(languages);
    if (found != apis_.end())
        return found->second.get();
    if (OcrError e = checkLanguages(languages)) {
        *error = e;
        return nullptr;
    }
    auto api = std::make_unique<tesseract::TessBaseAPI>();
    const QByteArray dir = QFile::encodeName(tessdataDir());
    const QByteArray langs = languages.toLatin1();
    if (api->Init(dir.constData(), langs.constData(), tesseract::OEM_LSTM_ONLY) != 0) {
        *error = {OcrErrorKind::MissingLanguage,
                  QStringLiteral("Tesseract could not load %1 from %2 (a damaged language "
                                 "file? reinstall %3)")
                      .arg(languages, tessdataDir(),
                           debianPackage(languages.section(QLatin1Char('+'), 0, 0)))};
        return nullptr;
    }
    api->SetPageSegMode(tesseract::PSM_AUTO);
    tesseract::TessBaseAPI* raw = api.get();
    apis_.emplace(languages, std::move(api));
    return raw;
}

ReadResult TesseractReader::read(const QImage& image, double dpi, const LanguageChoice& languages,
                                 const std::atomic_bool* cancel, const QString& autoHint) {
    if (image.isNull() || image.width() < kMinSide || image.height() < kMinSide)
        return {{},
                {OcrErrorKind::BadImage,
                 image.isNull() ? QStringLiteral("no page image to read (empty or undecodable)")
                                : QStringLiteral("the page image is %1x%2 pixels: too small "
                                                 "to read")
                                      .arg(image.width())
                                      .arg(image.height())}};
    if (image.width() > kMaxSide || image.height() > kMaxSide)
        return {{},
                {OcrErrorKind::BadImage, QStringLiteral("the page image is %1x%2 pixels: above "
                                                        "Tesseract's limit of %3 a side")
                                             .arg(image.width())
                                             .arg(image.height())
                                             .arg(kMaxSide)}};
    const QImage grey = image.format() == QImage::Format_Grayscale8
                            ? image
                            : image.convertToFormat(QImage::Format_Grayscale8);
    if (!languages.isAuto())
        return readWith(grey, dpi, languages.languages, cancel);

    // A page of the document's script (`autoHint`, from its other pages) is read with that
    // script's model alone, the fastest and as accurate; unknown, with both. A reading with one
    // language that Tesseract is unsure of (a page of the other script) is read again with both.
    const QString first = autoHint.isEmpty() ? kBothScripts : autoHint;
    ReadResult r = readWith(grey, dpi, first, cancel);
    if (r.error || first == kBothScripts || r.page.text.trimmed().isEmpty() ||
        r.page.meanConfidence >= kRereadBelowConfidence)
        return r;
    ReadResult both = readWith(grey, dpi, kBothScripts, cancel);
    if (both.error.kind == OcrErrorKind::Cancelled)
        return both;
    return !both.error && both.page.meanConfidence > r.page.meanConfidence ? both : r;
}

ReadResult TesseractReader::readWith(const QImage& grey, double dpi, const QString& languages,
                                     const std::atomic_bool* cancel) {
    ReadResult result;
    tesseract::TessBaseAPI* tess = api(languages, &result.error);
    if (!tess)
        return result;
    if (cancel && cancel->load())
        return {{}, {OcrErrorKind::Cancelled, QStringLiteral("OCR cancelled")}};
    tess->SetImage(grey.constBits(), grey.width(), grey.height(), 1, int(grey.bytesPerLine()));
    const int ppi = std::clamp(int(dpi + 0.5), 70, 2400);
    tess->SetSourceResolution(ppi);
    tesseract::ETEXT_DESC monitor;
    monitor.cancel = &cancelRequested;
    monitor.cancel_this = const_cast<std::atomic_bool*>(cancel);
    const int rc = tess->Recognize(&monitor);
    if (cancel && cancel->load()) {
        tess->Clear();
        return {{}, {OcrErrorKind::Cancelled, QStringLiteral("OCR cancelled")}};
    }
    if (rc != 0) {
        tess->Clear();
        return {{},
                {OcrErrorKind::BadImage,
                 QStringLiteral("Tesseract could not read the page image (%1x%2 pixels)")
                     .arg(grey.width())
                     .arg(grey.height())}};
    }
    PageOcr& page = result.page;
    page.languages = languages;
    page.dpi = ppi;
    page.text = joinCjkSpaces(takeText(tess->GetUTF8Text()));
    page.meanConfidence = float(std::max(0, tess->MeanTextConf()));
    const double toPoints = 72.0 / dpi;
    std::unique_ptr<tesseract::ResultIterator> it(tess->GetIterator());
    if (it) {
        do {
            const QString word = takeText(it->GetUTF8Text(tesseract::RIL_WORD));
            if (word.trimmed().isEmpty())
                continue;
            int left = 0, top = 0, right = 0, bottom = 0;
            if (!it->BoundingBox(tesseract::RIL_WORD, &left, &top, &right, &bottom))
                continue;
            page.words.append({word,
                               QRectF(left * toPoints, top * toPoints, (right - left) * toPoints,
                                      (bottom - top) * toPoints),
                               it->Confidence(tesseract::RIL_WORD)});
        } while (it->Next(tesseract::RIL_WORD));
    }
    tess->Clear();
    return result;
}

} // namespace folio::ocr
