#include "core/documents/document_loader.h"

#include "core/ocr/page_classify.h"
#include "core/ocr/script_detect.h"

#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>
#include <QImageReader>
#include <QPdfDocument>
#include <QPdfSelection>
#include <QtConcurrent>

namespace folio::ui {

namespace {

QString pdfErrorText(QPdfDocument::Error e) {
    switch (e) {
    case QPdfDocument::Error::None:
        return QStringLiteral("no error");
    case QPdfDocument::Error::FileNotFound:
        return QStringLiteral("file not found");
    case QPdfDocument::Error::InvalidFileFormat:
        return QStringLiteral("not a valid PDF (corrupt or truncated)");
    case QPdfDocument::Error::IncorrectPassword:
        return QStringLiteral("the PDF is password protected");
    case QPdfDocument::Error::UnsupportedSecurityScheme:
        return QStringLiteral("unsupported PDF security scheme");
    case QPdfDocument::Error::DataNotYetAvailable:
        return QStringLiteral("data not yet available");
    case QPdfDocument::Error::Unknown:
        break;
    }
    return QStringLiteral("unknown PDF error");
}

// A PDF begins with "%PDF-" within its first 1024 bytes (ISO 32000-1, 7.5.2; readers allow
// some bytes before it).
bool startsLikePdf(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return true; // unreadable: QtPdf's own message says so
    return file.read(1024).contains("%PDF-");
}

// Text of the layer that tells the document's script, and the least that can tell it.
constexpr qsizetype kScriptSampleChars = 20000;
constexpr qsizetype kMinScriptSampleChars = 200;

QImage thumbnailOf(const QImage& image) {
    return image.scaled(QSize(kThumbnailSize, kThumbnailSize), Qt::KeepAspectRatio,
                        Qt::SmoothTransformation);
}

Document loadPdf(Document doc, const std::function<void(int, int)>& progress,
                 const std::function<bool()>& cancelled) {
    QPdfDocument pdf;
    QPdfDocument::Error err = pdf.load(doc.path);
    if (err == QPdfDocument::Error::InvalidFileFormat && !startsLikePdf(doc.path)) {
        // Not a damaged PDF: another kind of file with a .pdf name (issue #48 §10).
        doc.state = Document::State::Failed;
        doc.error = QStringLiteral("%1: not a PDF file (it does not begin with %PDF-; a text or "
                                   "other file named .pdf?)")
                        .arg(QFileInfo(doc.path).fileName());
        return doc;
    }
    if (err != QPdfDocument::Error::None) {
        doc.state = Document::State::Failed;
        doc.error = QStringLiteral("%1: %2").arg(QFileInfo(doc.path).fileName(), pdfErrorText(err));
        return doc;
    }
    if (pdf.pageCount() > kMaxPdfPages) {
        doc.state = Document::State::Failed;
        doc.error = QStringLiteral("%1: %2 pages; Folio reads PDFs of up to %3 pages (split the "
                                   "file, or extract the part you need)")
                        .arg(QFileInfo(doc.path).fileName())
                        .arg(pdf.pageCount())
                        .arg(kMaxPdfPages);
        return doc;
    }
    doc.pageCount = pdf.pageCount();
    const QString title = pdf.metaData(QPdfDocument::MetaDataField::Title).toString().trimmed();
    if (!title.isEmpty())
        doc.title = title;
    doc.pageTexts.reserve(doc.pageCount);
    doc.pageOrigins.reserve(doc.pageCount);
    QString layerSample; // the document's script, from its good text layer
    for (int i = 0; i < doc.pageCount; ++i) {
        if (cancelled && cancelled()) {
            doc.state = Document::State::Failed;
            doc.error =
                QStringLiteral("%1: reading was cancelled").arg(QFileInfo(doc.path).fileName());
            return doc;
        }
        const QString text = pdf.getAllText(i).text();
        doc.pageTexts.append(text);
        // A page without a usable text layer (none, or junk for its area) is read with OCR.
        PageOrigin origin;
        if (ocr::needsOcr(text, pdf.pagePointSize(i)))
            origin.source = PageOrigin::Source::OcrPending;
        else if (layerSample.size() < kScriptSampleChars)
            layerSample += text.left(kScriptSampleChars);
        doc.pageOrigins.append(origin);
        if (progress)
            progress(i + 1, doc.pageCount);
    }
    if (layerSample.size() >= kMinScriptSampleChars)
        doc.scriptHint = ocr::languagesForText(layerSample);
    if (doc.pageCount > 0) {
        const QSizeF points = pdf.pagePointSize(0);
        if (points.width() > 0 && points.height() > 0) {
            const QSize size =
                points.scaled(QSizeF(kThumbnailSize, kThumbnailSize), Qt::KeepAspectRatio).toSize();
            doc.thumbnail = pdf.render(0, size);
        }
    }
    doc.state = Document::State::Ready;
    return doc;
}

// A whole JPEG ends with the end-of-image marker FF D9 (ITU-T T.81, B.2.1), possibly followed
// by padding some writers add; a file cut short during a copy or download does not.
bool jpegIsWhole(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    const qint64 tail = qMin<qint64>(file.size(), 4096);
    file.seek(file.size() - tail);
    QByteArray bytes = file.read(tail);
    while (!bytes.isEmpty() && (bytes.back() == '\0' || bytes.back() == '\n' ||
                                bytes.back() == '\r' || bytes.back() == ' '))
        bytes.chop(1);
    return bytes.endsWith(QByteArrayLiteral("\xFF\xD9"));
}

Document loadImage(Document doc) {
    QImageReader reader(doc.path);
    const QSize size = reader.size(); // header only: no decode yet
    if (!size.isValid()) {
        doc.state = Document::State::Failed;
        doc.error = QStringLiteral("%1: not a readable image (%2)")
                        .arg(QFileInfo(doc.path).fileName(), reader.errorString());
        return doc;
    }
    if (qint64(size.width()) * size.height() > kMaxImagePixels) {
        doc.state = Document::State::Failed;
        doc.error = QStringLiteral("%1: image is %2x%3 pixels, above the %4 MP limit")
                        .arg(QFileInfo(doc.path).fileName())
                        .arg(size.width())
                        .arg(size.height())
                        .arg(kMaxImagePixels / 1000000);
        return doc;
    }
    if (reader.format() == "jpeg" && !jpegIsWhole(doc.path)) {
        // Qt's decoder fills a cut-off JPEG with grey and says nothing; the engine's refuses it
        // at the question. Said here, when the file is opened.
        doc.state = Document::State::Failed;
        doc.error = QStringLiteral("%1: the JPEG file is cut short (no end-of-image marker): it "
                                   "may not have finished downloading or copying. Open the "
                                   "complete file.")
                        .arg(QFileInfo(doc.path).fileName());
        return doc;
    }
    QImage image = reader.read();
    if (image.isNull()) {
        doc.state = Document::State::Failed;
        doc.error = QStringLiteral("%1: corrupt image (%2)")
                        .arg(QFileInfo(doc.path).fileName(), reader.errorString());
        return doc;
    }
    doc.imageSize = image.size();
    doc.thumbnail = thumbnailOf(image);
    doc.preview = image.width() > kPreviewSize || image.height() > kPreviewSize
                      ? image.scaled(QSize(kPreviewSize, kPreviewSize), Qt::KeepAspectRatio,
                                     Qt::SmoothTransformation)
                      : image;
    doc.pageCount = 1;
    doc.state = Document::State::Ready;
    return doc;
}

} // namespace

QString fileFingerprint(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return QString();
    QCryptographicHash hash(QCryptographicHash::Sha256);
    if (!hash.addData(&file))
        return QString();
    return QString::fromLatin1(hash.result().toHex());
}

bool isSupportedDocument(const QString& path) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    static const QStringList kSuffixes = {QStringLiteral("pdf"), QStringLiteral("png"),
                                          QStringLiteral("jpg"), QStringLiteral("jpeg"),
                                          QStringLiteral("bmp"), QStringLiteral("gif")};
    return kSuffixes.contains(suffix);
}

Document loadDocument(const QString& path, const std::function<void(int, int)>& progress,
                      const std::function<bool()>& cancelled) {
    Document doc;
    QFileInfo info(path);
    doc.path = info.absoluteFilePath();
    doc.title = info.fileName();
    doc.kind = info.suffix().compare(QLatin1String("pdf"), Qt::CaseInsensitive) == 0
                   ? Document::Kind::Pdf
                   : Document::Kind::Image;
    if (!info.exists()) {
        doc.state = Document::State::Failed;
        doc.error = QStringLiteral("%1: file not found").arg(path);
        return doc;
    }
    doc.fileBytes = info.size();
    if (doc.fileBytes == 0) {
        doc.state = Document::State::Failed;
        doc.error = QStringLiteral("%1: the file is empty (0 bytes)").arg(info.fileName());
        return doc;
    }
    doc.fingerprint = fileFingerprint(doc.path);
    return doc.kind == Document::Kind::Pdf ? loadPdf(doc, progress, cancelled) : loadImage(doc);
}

QFuture<Document> loadDocumentAsync(const QString& path) {
    return QtConcurrent::run([path](QPromise<Document>& promise) {
        Document doc = loadDocument(
            path,
            [&promise](int done, int total) {
                promise.setProgressRange(0, total);
                promise.setProgressValue(done);
            },
            [&promise] { return promise.isCanceled(); });
        if (!promise.isCanceled())
            promise.addResult(std::move(doc));
    });
}

} // namespace folio::ui
