#pragma once
// An image that goes with one question (issue #23): an image file, a whole PDF page or a part
// of one (a crop selected on the page preview). Only the images attached to a question go into
// its prompt. Each is kept as a file in the chat's image store, named by the SHA-256 of its
// bytes, so the chat keeps it when the source moves or changes, and the same picture is kept
// once.

#include "core/pipeline/page_render.h"

#include <QImage>
#include <QJsonObject>
#include <QList>
#include <QRectF>
#include <QString>

class QImage;

namespace folio::ui {

struct QuestionImage {
    enum class Kind { File, Page, Crop };
    Kind kind = Kind::File;
    QString source; // the image file or PDF it came from
    int page = 0;   // 1-based (Page, Crop)
    QRectF region;  // Crop: the part of the page, in fractions of its width and height
    QString file;   // the stored image the model reads
    // "chart.png", "report.pdf p. 12", "report.pdf p. 12 (part)".
    QString label() const;
    bool operator==(const QuestionImage& o) const {
        return kind == o.kind && source == o.source && page == o.page && region == o.region &&
               file == o.file;
    }
};

QJsonObject questionImageToJson(const QuestionImage& image);
// False for an entry without a stored file or with an unknown kind.
bool questionImageFromJson(const QJsonObject& json, QuestionImage& out);

// The store of question images: <app data>/question-images (user data, not a cache: the chats
// refer to these files).
QString defaultQuestionImageDir();

// A stored image scaled down while it is read to fit `height` pixels high (and at most four
// times as wide), for chips and the transcript; a null image when the file cannot be read.
QImage questionImageThumbnail(const QString& file, int height);

struct StoredImage {
    QString file;  // the stored copy
    QString error; // "" on success, else for the user (what happened, what to do)
    bool ok() const { return error.isEmpty(); }
};

// The largest picture accepted (pixels); bigger ones are refused before they are decoded.
constexpr qint64 kMaxQuestionImagePixels = 64LL * 1024 * 1024;

// Keeps the image file at `path` in `dir` (its bytes, after checking they decode as an image of
// at most kMaxQuestionImagePixels). Atomic; any thread.
StoredImage storeImageFile(const QString& path, const QString& dir);
// Keeps `image` in `dir` as a PNG. Atomic; any thread.
StoredImage storeImage(const QImage& image, const QString& dir);

// Renders page `page` (1-based) of the PDF at `pdfPath` — the part `region` of it (fractions;
// the whole page for (0, 0, 1, 1)) — on the projector's canvas and keeps it in `dir`: the
// QuestionImage of a Page or a Crop. Blocking; any thread.
struct QuestionImageResult {
    QuestionImage image;
    QString error;
    bool ok() const { return error.isEmpty(); }
};
QuestionImageResult pageQuestionImage(const QString& pdfPath, int page, QRectF region,
                                      const PageRenderParams& params, const QString& dir);
QuestionImageResult fileQuestionImage(const QString& imagePath, const QString& dir);

} // namespace folio::ui
