#include "doc_cache/reading_checkpoints.h"

#include "core/storage/atomic_write.h"
#include "doc_cache/cache_index.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

namespace folio::ui {

namespace {

constexpr int kNoteVersion = 1;

// The file names' stem of a key (keys are SHA-256 hex: 32 characters are plenty).
QString stem(const QString& key) {
    return key.left(32);
}

} // namespace

ReadingCheckpoints::ReadingCheckpoints(const QString& cacheDir)
    : dir_((cacheDir.isEmpty() ? CacheIndex::defaultDir() : cacheDir) +
           QStringLiteral("/reading")) {}

QString ReadingCheckpoints::notePath(const QString& key) const {
    return dir_ + QLatin1Char('/') + stem(key) + QStringLiteral(".json");
}

QString ReadingCheckpoints::pathOf(const ReadingCheckpoint& c) const {
    return dir_ + QLatin1Char('/') + c.snapshotFile;
}

std::optional<ReadingCheckpoint> ReadingCheckpoints::find(const QString& key, QString* note) {
    if (note)
        note->clear();
    QFile file(notePath(key));
    if (!file.exists())
        return std::nullopt;
    QString problem;
    ReadingCheckpoint c;
    if (!file.open(QIODevice::ReadOnly)) {
        problem = file.errorString();
    } else {
        QJsonParseError error{};
        const QJsonObject o = QJsonDocument::fromJson(file.readAll(), &error).object();
        c.key = o.value(QStringLiteral("key")).toString();
        c.snapshotFile = o.value(QStringLiteral("snapshot")).toString();
        c.documents = o.value(QStringLiteral("documents")).toInteger(-1);
        c.start = o.value(QStringLiteral("start")).toInteger(-1);
        c.tokens = o.value(QStringLiteral("tokens")).toInteger(-1);
        c.total = o.value(QStringLiteral("total")).toInteger(-1);
        c.fingerprint = o.value(QStringLiteral("fingerprint")).toString();
        if (error.error != QJsonParseError::NoError)
            problem = error.errorString();
        else if (o.value(QStringLiteral("version")).toInt() != kNoteVersion || c.key != key ||
                 c.documents < 0 || c.start < 0 || c.tokens <= c.start || c.total < c.tokens ||
                 !c.snapshotFile.startsWith(stem(key)) || c.snapshotFile.contains(QLatin1Char('/')))
            problem = QStringLiteral("its note does not fit the documents");
        else if (!QFileInfo(pathOf(c)).isFile())
            problem = QStringLiteral("its snapshot %1 is missing").arg(c.snapshotFile);
    }
    if (problem.isEmpty())
        return c;
    if (note)
        *note = QStringLiteral("%1: %2").arg(file.fileName(), problem);
    remove(key);
    return std::nullopt;
}

QString ReadingCheckpoints::newSnapshotPath(const QString& key) const {
    if (!QDir().mkpath(dir_))
        return {};
    return dir_ + QLatin1Char('/') + stem(key) + QLatin1Char('-') +
           QString::number(QDateTime::currentMSecsSinceEpoch()) + QStringLiteral(".fkv");
}

QString ReadingCheckpoints::commit(const ReadingCheckpoint& c) {
    QJsonObject o;
    o.insert(QStringLiteral("version"), kNoteVersion);
    o.insert(QStringLiteral("key"), c.key);
    o.insert(QStringLiteral("snapshot"), c.snapshotFile);
    o.insert(QStringLiteral("documents"), c.documents);
    o.insert(QStringLiteral("start"), c.start);
    o.insert(QStringLiteral("tokens"), c.tokens);
    o.insert(QStringLiteral("total"), c.total);
    o.insert(QStringLiteral("fingerprint"), c.fingerprint);
    const QString error =
        writeFileAtomic(notePath(c.key), QJsonDocument(o).toJson(QJsonDocument::Compact));
    if (!error.isEmpty())
        return error;
    const QDir dir(dir_);
    // The key's earlier snapshots (and the temporary file of a save that was killed): the note
    // no longer names them.
    for (const QFileInfo& f :
         dir.entryInfoList({stem(c.key) + QStringLiteral("-*.fkv*")}, QDir::Files))
        if (f.fileName() != c.snapshotFile)
            QFile::remove(f.absoluteFilePath());
    // Other prefixes' checkpoints beyond the newest kKept.
    const QFileInfoList notes =
        dir.entryInfoList({QStringLiteral("*.json")}, QDir::Files, QDir::Time);
    for (qsizetype i = kKept; i < notes.size(); ++i)
        remove(notes[i].completeBaseName());
    return {};
}

void ReadingCheckpoints::remove(const QString& key) {
    QFile::remove(notePath(key));
    const QDir dir(dir_);
    for (const QFileInfo& f :
         dir.entryInfoList({stem(key) + QStringLiteral("-*.fkv*")}, QDir::Files))
        QFile::remove(f.absoluteFilePath());
}

} // namespace folio::ui
