#include "doc_cache/cache_index.h"

#include "core/storage/atomic_write.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSettings>
#include <QStandardPaths>

#include <algorithm>

namespace folio::ui {

namespace {

const char* const kIndexFile = "index.json";
const char* const kSnapshotSuffix = ".fkv";
const char* const kBudgetKey = "documentCache/budgetBytes";
constexpr int kIndexVersion = 1;

QJsonObject toJson(const CacheEntry& e) {
    QJsonObject o;
    o[QStringLiteral("key")] = e.key;
    o[QStringLiteral("file")] = e.fileName;
    o[QStringLiteral("model")] = e.model;
    o[QStringLiteral("documents")] = QJsonArray::fromStringList(e.documents);
    o[QStringLiteral("tokens")] = e.tokens;
    o[QStringLiteral("bytes")] = e.bytes;
    o[QStringLiteral("created")] = e.created.toString(Qt::ISODateWithMs);
    o[QStringLiteral("lastUsed")] = e.lastUsed.toString(Qt::ISODateWithMs);
    return o;
}

bool fromJson(const QJsonObject& o, CacheEntry& e) {
    e.key = o.value(QStringLiteral("key")).toString();
    e.fileName = o.value(QStringLiteral("file")).toString();
    e.model = o.value(QStringLiteral("model")).toString();
    for (const QJsonValue& v : o.value(QStringLiteral("documents")).toArray())
        e.documents << v.toString();
    e.tokens = o.value(QStringLiteral("tokens")).toInteger();
    e.bytes = o.value(QStringLiteral("bytes")).toInteger();
    e.created =
        QDateTime::fromString(o.value(QStringLiteral("created")).toString(), Qt::ISODateWithMs);
    e.lastUsed =
        QDateTime::fromString(o.value(QStringLiteral("lastUsed")).toString(), Qt::ISODateWithMs);
    // A file name with a path in it would let a crafted index delete files elsewhere.
    return !e.key.isEmpty() && !e.fileName.isEmpty() && !e.fileName.contains(QLatin1Char('/')) &&
           !e.fileName.contains(QLatin1Char('\\')) && e.fileName != QLatin1String("..");
}

void sortByUse(QList<CacheEntry>& entries) {
    std::stable_sort(entries.begin(), entries.end(), [](const CacheEntry& a, const CacheEntry& b) {
        return a.lastUsed > b.lastUsed;
    });
}

} // namespace

QString cacheKey(const QString& modelFingerprint, const QStringList& documentFingerprints,
                 int layoutVersion, const QString& kvType) {
    QCryptographicHash h(QCryptographicHash::Sha256);
    h.addData(QByteArrayLiteral("folio-document-cache\n"));
    h.addData(modelFingerprint.toUtf8() + '\n');
    for (const QString& f : documentFingerprints)
        h.addData(f.toUtf8() + '\n');
    h.addData(QByteArray::number(layoutVersion) + '\n');
    h.addData(kvType.toUtf8());
    return QString::fromLatin1(h.result().toHex());
}

CacheIndex::CacheIndex(QString dir) : dir_(dir.isEmpty() ? defaultDir() : std::move(dir)) {
    reload();
}

QString CacheIndex::defaultDir() {
    return QStandardPaths::writableLocation(QStandardPaths::CacheLocation) +
           QStringLiteral("/document-caches");
}

qint64 CacheIndex::budgetSetting() {
    const qint64 v = QSettings().value(QLatin1String(kBudgetKey), kDefaultBudget).toLongLong();
    return v > 0 ? v : kDefaultBudget;
}

void CacheIndex::setBudgetSetting(qint64 bytes) {
    QSettings().setValue(QLatin1String(kBudgetKey), bytes);
}

QString CacheIndex::indexPath() const {
    return dir_ + QLatin1Char('/') + QLatin1String(kIndexFile);
}

QString CacheIndex::pathOf(const CacheEntry& entry) const {
    return dir_ + QLatin1Char('/') + entry.fileName;
}

void CacheIndex::reload() {
    entries_.clear();
    QFile file(indexPath());
    if (!file.exists())
        return;
    bool corrupt = !file.open(QIODevice::ReadOnly);
    QJsonParseError parseError{};
    const QJsonDocument doc =
        corrupt ? QJsonDocument() : QJsonDocument::fromJson(file.readAll(), &parseError);
    corrupt = corrupt || parseError.error != QJsonParseError::NoError || !doc.isObject() ||
              doc.object().value(QStringLiteral("version")).toInt() != kIndexVersion;
    if (corrupt) {
        qWarning("document cache: the index %s is unreadable or corrupt; dropping it and the "
                 "snapshots in the folder (documents will be read again)",
                 qPrintable(indexPath()));
        // Nothing can say what the snapshots hold: remove them (they would fill the disk).
        for (const QFileInfo& f : QDir(dir_).entryInfoList(
                 {QStringLiteral("*") + QLatin1String(kSnapshotSuffix)}, QDir::Files))
            QFile::remove(f.absoluteFilePath());
        QFile::remove(indexPath());
        return;
    }
    bool changed = false;
    for (const QJsonValue& v : doc.object().value(QStringLiteral("entries")).toArray()) {
        CacheEntry e;
        if (!fromJson(v.toObject(), e)) {
            changed = true;
            continue;
        }
        const QFileInfo info(pathOf(e));
        if (!info.isFile()) {
            qWarning("document cache: the snapshot %s is missing; dropping its entry",
                     qPrintable(info.filePath()));
            changed = true;
            continue;
        }
        e.bytes = info.size();
        entries_.append(e);
    }
    sortByUse(entries_);
    if (changed)
        save();
}

qint64 CacheIndex::totalBytes() const {
    qint64 total = 0;
    for (const CacheEntry& e : entries_)
        total += e.bytes;
    return total;
}

const CacheEntry* CacheIndex::find(const QString& key) {
    reload();
    for (const CacheEntry& e : entries_)
        if (e.key == key)
            return &e;
    return nullptr;
}

QString CacheIndex::newFilePath(const QString& key, QString* error) {
    if (!QDir().mkpath(dir_) || !QFileInfo(dir_).isDir()) {
        if (error)
            *error = QObject::tr("Cannot create the document-cache folder %1 (is it a file, or "
                                 "read-only?). Documents are read again on every start.")
                         .arg(dir_);
        return {};
    }
    return dir_ + QLatin1Char('/') + key.left(32) + QLatin1Char('-') +
           QString::number(QDateTime::currentMSecsSinceEpoch()) + QLatin1String(kSnapshotSuffix);
}

QString CacheIndex::add(CacheEntry entry, qint64 budget) {
    reload();
    for (qsizetype i = entries_.size() - 1; i >= 0; --i)
        if (entries_[i].key == entry.key) {
            if (entries_[i].fileName != entry.fileName)
                QFile::remove(pathOf(entries_[i]));
            entries_.removeAt(i);
        }
    entry.bytes = QFileInfo(pathOf(entry)).size();
    if (!entry.created.isValid())
        entry.created = QDateTime::currentDateTimeUtc();
    entry.lastUsed = QDateTime::currentDateTimeUtc();
    entries_.prepend(entry);
    const QString error = save();
    if (!error.isEmpty()) {
        // An index that cannot be written cannot name the snapshot: do not leave it behind.
        QFile::remove(pathOf(entry));
        entries_.removeFirst();
        return error;
    }
    enforceBudget(budget, entry.key);
    return {};
}

void CacheIndex::touch(const QString& key) {
    reload();
    for (CacheEntry& e : entries_)
        if (e.key == key) {
            e.lastUsed = QDateTime::currentDateTimeUtc();
            sortByUse(entries_);
            save();
            return;
        }
}

void CacheIndex::remove(const QString& key, const QString& reason) {
    reload();
    for (qsizetype i = 0; i < entries_.size(); ++i)
        if (entries_[i].key == key) {
            if (!reason.isEmpty())
                qWarning("document cache: dropping %s: %s", qPrintable(entries_[i].fileName),
                         qPrintable(reason));
            QFile::remove(pathOf(entries_[i]));
            entries_.removeAt(i);
            save();
            return;
        }
}

void CacheIndex::removeAll() {
    reload();
    for (const CacheEntry& e : entries_)
        QFile::remove(pathOf(e));
    entries_.clear();
    save();
}

QString CacheIndex::deletedDir() const {
    return dir_ + QStringLiteral("/deleted");
}

QList<CacheEntry> CacheIndex::takeOut(const QStringList& keys) {
    reload();
    QList<CacheEntry> taken;
    QDir().mkpath(deletedDir());
    for (qsizetype i = entries_.size() - 1; i >= 0; --i) {
        if (!keys.contains(entries_[i].key))
            continue;
        const QString to = deletedDir() + QLatin1Char('/') + entries_[i].fileName;
        QFile::remove(to);
        // A snapshot that cannot be moved aside is removed: the Delete still happens.
        if (!QFile::rename(pathOf(entries_[i]), to))
            QFile::remove(pathOf(entries_[i]));
        taken.prepend(entries_[i]);
        entries_.removeAt(i);
    }
    if (!taken.isEmpty())
        save();
    return taken;
}

void CacheIndex::restore(const QList<CacheEntry>& entries) {
    reload();
    for (const CacheEntry& e : entries) {
        const QString from = deletedDir() + QLatin1Char('/') + e.fileName;
        const bool madeAgain = std::any_of(entries_.begin(), entries_.end(),
                                           [&e](const CacheEntry& x) { return x.key == e.key; });
        if (!QFile::exists(from) || madeAgain)
            continue; // gone for good, or made again meanwhile
        if (!QFile::rename(from, pathOf(e)))
            continue;
        entries_.append(e);
    }
    // Most recently used first, as the index keeps them.
    std::stable_sort(
        entries_.begin(), entries_.end(),
        [](const CacheEntry& a, const CacheEntry& b) { return a.lastUsed > b.lastUsed; });
    save();
}

void CacheIndex::purgeDeleted() {
    QDir(deletedDir()).removeRecursively();
}

void CacheIndex::enforceBudget(qint64 budget, const QString& keep) {
    bool changed = false;
    qint64 total = totalBytes();
    // entries_ is most recently used first: evict from the back.
    for (qsizetype i = entries_.size() - 1; i >= 0 && total > budget; --i) {
        if (entries_[i].key == keep)
            continue;
        qInfo("document cache: evicting %s (%lld bytes; over the %lld-byte budget)",
              qPrintable(entries_[i].fileName), static_cast<long long>(entries_[i].bytes),
              static_cast<long long>(budget));
        total -= entries_[i].bytes;
        QFile::remove(pathOf(entries_[i]));
        entries_.removeAt(i);
        changed = true;
    }
    if (changed)
        save();
}

QString CacheIndex::save() {
    QJsonArray list;
    for (const CacheEntry& e : entries_)
        list.append(toJson(e));
    QJsonObject root;
    root[QStringLiteral("version")] = kIndexVersion;
    root[QStringLiteral("entries")] = list;
    if (!QDir().mkpath(dir_))
        return QObject::tr("Cannot create the document-cache folder %1").arg(dir_);
    const QString error =
        writeFileAtomic(indexPath(), QJsonDocument(root).toJson(QJsonDocument::Indented));
    if (!error.isEmpty())
        qWarning("document cache: cannot write the index: %s", qPrintable(error));
    return error;
}

} // namespace folio::ui
