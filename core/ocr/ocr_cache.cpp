#include "core/ocr/ocr_cache.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QStandardPaths>

namespace folio::ocr {

namespace {

const QByteArray kMagic = QByteArrayLiteral("folio-ocr");

QByteArray sha256Hex(const QByteArray& bytes) {
    return QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex();
}

QString safeName(const QString& s) {
    QString out;
    for (const QChar c : s)
        out += (c.isLetterOrNumber() && c.unicode() < 128) || c == QLatin1Char('_') ||
                       c == QLatin1Char('+')
                   ? c
                   : QLatin1Char('-');
    return out.isEmpty() ? QStringLiteral("auto") : out;
}

} // namespace

QString documentFingerprint(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return QString();
    QCryptographicHash hash(QCryptographicHash::Sha256);
    if (!hash.addData(&file))
        return QString();
    return QString::fromLatin1(hash.result().toHex());
}

QString defaultOcrCacheDir() {
    return QStandardPaths::writableLocation(QStandardPaths::CacheLocation) + QStringLiteral("/ocr");
}

OcrCache::OcrCache(QString dir) : dir_(std::move(dir)) {}

QString OcrCache::entryPath(const QString& fingerprint, int page, const QString& languages) const {
    const QString fp = safeName(fingerprint);
    return QStringLiteral("%1/%2/%3-p%4-%5.ocr")
        .arg(dir_, fp.left(2), fp)
        .arg(page)
        .arg(safeName(languages));
}

QByteArray OcrCache::encode(const PageOcr& ocr) {
    QJsonArray words;
    for (const OcrWord& w : ocr.words)
        words.append(QJsonArray{w.text, w.box.x(), w.box.y(), w.box.width(), w.box.height(),
                                double(w.confidence)});
    const QJsonObject o{{QStringLiteral("text"), ocr.text},
                        {QStringLiteral("confidence"), double(ocr.meanConfidence)},
                        {QStringLiteral("languages"), ocr.languages},
                        {QStringLiteral("dpi"), ocr.dpi},
                        {QStringLiteral("words"), words}};
    const QByteArray body = QJsonDocument(o).toJson(QJsonDocument::Compact);
    return kMagic + ' ' + QByteArray::number(kOcrCacheVersion) + ' ' + sha256Hex(body) + '\n' +
           body;
}

std::optional<PageOcr> OcrCache::decode(const QByteArray& bytes, QString* why) {
    auto fail = [why](const QString& reason) -> std::optional<PageOcr> {
        if (why)
            *why = reason;
        return std::nullopt;
    };
    const qsizetype eol = bytes.indexOf('\n');
    if (eol < 0)
        return fail(QStringLiteral("no header line"));
    const QList<QByteArray> header = bytes.left(eol).split(' ');
    if (header.size() != 3 || header[0] != kMagic)
        return fail(QStringLiteral("not an OCR cache entry"));
    if (header[1] != QByteArray::number(kOcrCacheVersion))
        return fail(QStringLiteral("format version %1, expected %2")
                        .arg(QString::fromLatin1(header[1]))
                        .arg(kOcrCacheVersion));
    const QByteArray body = bytes.mid(eol + 1);
    if (sha256Hex(body) != header[2])
        return fail(QStringLiteral("checksum mismatch (damaged or truncated)"));
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &error);
    if (!doc.isObject())
        return fail(QStringLiteral("invalid JSON: %1").arg(error.errorString()));
    const QJsonObject o = doc.object();
    PageOcr ocr;
    ocr.text = o.value(QStringLiteral("text")).toString();
    ocr.meanConfidence = float(o.value(QStringLiteral("confidence")).toDouble());
    ocr.languages = o.value(QStringLiteral("languages")).toString();
    ocr.dpi = o.value(QStringLiteral("dpi")).toInt();
    for (const QJsonValue& v : o.value(QStringLiteral("words")).toArray()) {
        const QJsonArray w = v.toArray();
        if (w.size() != 6)
            return fail(QStringLiteral("a word entry has %1 fields, expected 6").arg(w.size()));
        ocr.words.append(
            {w[0].toString(),
             QRectF(w[1].toDouble(), w[2].toDouble(), w[3].toDouble(), w[4].toDouble()),
             float(w[5].toDouble())});
    }
    return ocr;
}

std::optional<PageOcr> OcrCache::load(const QString& fingerprint, int page,
                                      const QString& languages, QString* damaged) const {
    if (fingerprint.isEmpty())
        return std::nullopt;
    const QString path = entryPath(fingerprint, page, languages);
    QFile file(path);
    if (!file.exists())
        return std::nullopt;
    QString why;
    std::optional<PageOcr> ocr;
    if (!file.open(QIODevice::ReadOnly))
        why = file.errorString();
    else
        ocr = decode(file.readAll(), &why);
    if (ocr)
        return ocr;
    file.close();
    QFile::remove(path);
    if (damaged)
        *damaged =
            QStringLiteral("%1: %2; the page is read again").arg(QFileInfo(path).fileName(), why);
    return std::nullopt;
}

QString OcrCache::store(const QString& fingerprint, int page, const QString& languages,
                        const PageOcr& ocr) const {
    if (fingerprint.isEmpty())
        return QStringLiteral("no document fingerprint: OCR result not cached");
    const QString path = entryPath(fingerprint, page, languages);
    if (!QDir().mkpath(QFileInfo(path).path()))
        return QStringLiteral("%1: cannot create the folder").arg(QFileInfo(path).path());
    QSaveFile file(path);
    const QByteArray bytes = encode(ocr);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size()) {
        const QString e = QStringLiteral("%1: %2").arg(path, file.errorString());
        file.cancelWriting();
        return e;
    }
    if (!file.commit())
        return QStringLiteral("%1: %2").arg(path, file.errorString());
    return {};
}

} // namespace folio::ocr
