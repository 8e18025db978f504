#include "core/chat/question_image.h"

#include "core/storage/atomic_write.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QImageReader>
#include <QStandardPaths>

namespace folio::ui {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("folio::ui::QuestionImage", text);
}

QString kindKey(QuestionImage::Kind kind) {
    switch (kind) {
    case QuestionImage::Kind::File:
        return QStringLiteral("file");
    case QuestionImage::Kind::Page:
        return QStringLiteral("page");
    case QuestionImage::Kind::Crop:
        return QStringLiteral("crop");
    }
    return {};
}

StoredImage storeBytes(const QByteArray& bytes, const QString& suffix, const QString& dir) {
    StoredImage out;
    if (!QDir().mkpath(dir)) {
        out.error = tr("Cannot create the folder for question images %1: check its permissions "
                       "and free space.")
                        .arg(dir);
        return out;
    }
    const QString name =
        QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex()) +
        QLatin1Char('.') + suffix;
    const QString path = QDir(dir).filePath(name);
    QFile existing(path);
    if (existing.size() == bytes.size()) { // same name, same size: the same bytes
        out.file = path;
        return out;
    }
    const QString error = writeFileAtomic(path, bytes);
    if (!error.isEmpty()) {
        out.error = error;
        return out;
    }
    out.file = path;
    return out;
}

} // namespace

QString QuestionImage::label() const {
    const QString name = QFileInfo(source).fileName();
    switch (kind) {
    case Kind::File:
        return name;
    case Kind::Page:
        return tr("%1 p. %2").arg(name).arg(page);
    case Kind::Crop:
        return tr("%1 p. %2 (part)").arg(name).arg(page);
    }
    return name;
}

QJsonObject questionImageToJson(const QuestionImage& image) {
    QJsonObject o{{QStringLiteral("kind"), kindKey(image.kind)},
                  {QStringLiteral("source"), image.source},
                  {QStringLiteral("file"), image.file}};
    if (image.kind != QuestionImage::Kind::File)
        o.insert(QStringLiteral("page"), image.page);
    if (image.kind == QuestionImage::Kind::Crop)
        o.insert(QStringLiteral("region"),
                 QJsonObject{{QStringLiteral("x"), image.region.x()},
                             {QStringLiteral("y"), image.region.y()},
                             {QStringLiteral("width"), image.region.width()},
                             {QStringLiteral("height"), image.region.height()}});
    return o;
}

bool questionImageFromJson(const QJsonObject& o, QuestionImage& out) {
    QuestionImage image;
    const QString kind = o.value(QStringLiteral("kind")).toString();
    if (kind == QLatin1String("file"))
        image.kind = QuestionImage::Kind::File;
    else if (kind == QLatin1String("page"))
        image.kind = QuestionImage::Kind::Page;
    else if (kind == QLatin1String("crop"))
        image.kind = QuestionImage::Kind::Crop;
    else
        return false;
    image.source = o.value(QStringLiteral("source")).toString();
    image.file = o.value(QStringLiteral("file")).toString();
    image.page = o.value(QStringLiteral("page")).toInt();
    const QJsonObject r = o.value(QStringLiteral("region")).toObject();
    image.region = QRectF(
        r.value(QStringLiteral("x")).toDouble(), r.value(QStringLiteral("y")).toDouble(),
        r.value(QStringLiteral("width")).toDouble(), r.value(QStringLiteral("height")).toDouble());
    if (image.file.isEmpty())
        return false;
    out = image;
    return true;
}

QString defaultQuestionImageDir() {
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
           QStringLiteral("/question-images");
}

QImage questionImageThumbnail(const QString& file, int height) {
    QImageReader reader(file);
    const QSize size = reader.size();
    if (!size.isValid() || size.height() <= 0)
        return {};
    reader.setScaledSize(size.scaled(QSize(height * 4, height), Qt::KeepAspectRatio));
    return reader.read();
}

StoredImage storeImageFile(const QString& path, const QString& dir) {
    StoredImage out;
    QImageReader reader(path);
    const QSize size = reader.size();
    if (!reader.canRead() || !size.isValid()) {
        out.error = tr("%1 is not an image Folio can read (PNG, JPEG, …): choose another file.")
                        .arg(QFileInfo(path).fileName());
        return out;
    }
    if (qint64(size.width()) * size.height() > kMaxQuestionImagePixels) {
        out.error = tr("%1 is %2 × %3 pixels, more than Folio takes (%4 million): scale it down "
                       "or attach a part of it.")
                        .arg(QFileInfo(path).fileName())
                        .arg(size.width())
                        .arg(size.height())
                        .arg(kMaxQuestionImagePixels / (1024 * 1024));
        return out;
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        out.error = tr("Cannot read %1: %2").arg(path, file.errorString());
        return out;
    }
    const QByteArray bytes = file.readAll();
    QImage probe;
    if (!probe.loadFromData(bytes)) {
        out.error =
            tr("%1 is damaged: it does not decode as an image.").arg(QFileInfo(path).fileName());
        return out;
    }
    QString suffix = QString::fromLatin1(reader.format()).toLower();
    if (suffix.isEmpty())
        suffix = QStringLiteral("img");
    return storeBytes(bytes, suffix, dir);
}

StoredImage storeImage(const QImage& image, const QString& dir) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (image.isNull() || !image.save(&buffer, "PNG")) {
        StoredImage out;
        out.error = tr("Cannot encode the image as PNG.");
        return out;
    }
    return storeBytes(bytes, QStringLiteral("png"), dir);
}

QuestionImageResult pageQuestionImage(const QString& pdfPath, int page, QRectF region,
                                      const PageRenderParams& params, const QString& dir) {
    QuestionImageResult out;
    const bool whole = region.isNull() || region == QRectF(0, 0, 1, 1);
    const RenderedPage rendered =
        renderPdfRegion(pdfPath, page - 1, whole ? QRectF(0, 0, 1, 1) : region, params);
    if (!rendered.ok()) {
        out.error = rendered.error;
        return out;
    }
    const QImage image = rendered.imageView();
    const StoredImage stored = storeImage(image, dir);
    if (!stored.ok()) {
        out.error = stored.error;
        return out;
    }
    out.image.kind = whole ? QuestionImage::Kind::Page : QuestionImage::Kind::Crop;
    out.image.source = pdfPath;
    out.image.page = page;
    out.image.region = whole ? QRectF() : region;
    out.image.file = stored.file;
    return out;
}

QuestionImageResult fileQuestionImage(const QString& imagePath, const QString& dir) {
    QuestionImageResult out;
    const StoredImage stored = storeImageFile(imagePath, dir);
    if (!stored.ok()) {
        out.error = stored.error;
        return out;
    }
    out.image.kind = QuestionImage::Kind::File;
    out.image.source = imagePath;
    out.image.file = stored.file;
    return out;
}

} // namespace folio::ui
