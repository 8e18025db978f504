#include "core/chat/chat_store.h"

#include "core/chat/chat_json.h"
#include "core/storage/atomic_write.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QPointer>
#include <QStandardPaths>

#include <algorithm>

namespace folio::ui {

ChatStore::ChatStore(QString dir) : dir_(std::move(dir)) {
    writer_.setMaxThreadCount(1);
}

ChatStore::~ChatStore() {
    writer_.waitForDone();
}

void ChatStore::saveAsync(const ChatSession& chat, QObject* context,
                          std::function<void(const QString& error)> done) {
    const QByteArray bytes = QJsonDocument(chatToJson(chat)).toJson();
    const QString path = pathFor(chat.id);
    const QString dir = dir_;
    QPointer<QObject> guard(context);
    writer_.start([bytes, path, dir, guard, done = std::move(done)] {
        const QString error = QDir().mkpath(dir) ? writeFileAtomic(path, bytes)
                                                 : QStringLiteral("cannot create %1").arg(dir);
        if (guard)
            QMetaObject::invokeMethod(
                guard, [done, error] { done(error); }, Qt::QueuedConnection);
    });
}

void ChatStore::waitForSaves() {
    writer_.waitForDone();
}

QString ChatStore::defaultDir() {
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
           QStringLiteral("/chats");
}

QString ChatStore::pathFor(const QString& id) const {
    return dir_ + QLatin1Char('/') + id + QStringLiteral(".json");
}

QList<ChatSession> ChatStore::loadAll(QStringList* errors) const {
    QList<ChatSession> chats;
    const QDir dir(dir_);
    // A save interrupted by a crash or kill leaves its temporary file (QSaveFile's
    // "<id>.json.XXXXXX") and the chat as it was before. Remove such leftovers once they are
    // old enough not to be another running instance's save in progress.
    const QDateTime stale = QDateTime::currentDateTimeUtc().addSecs(-kStaleTempSeconds);
    for (const QFileInfo& f : dir.entryInfoList({QStringLiteral("*.json.??????")}, QDir::Files))
        if (f.lastModified().toUTC() < stale)
            QFile::remove(f.absoluteFilePath());
    for (const QString& name : dir.entryList({QStringLiteral("*.json")}, QDir::Files)) {
        QFile file(dir.filePath(name));
        QString error;
        ChatSession chat;
        if (!file.open(QIODevice::ReadOnly)) {
            error = file.errorString();
        } else {
            QJsonParseError parse;
            const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parse);
            if (parse.error != QJsonParseError::NoError)
                error = parse.errorString();
            else
                chatFromJson(doc.object(), chat, &error);
        }
        if (error.isEmpty())
            chats.append(chat);
        else if (errors)
            errors->append(QStringLiteral("%1: %2").arg(name, error));
    }
    std::stable_sort(chats.begin(), chats.end(), [](const ChatSession& a, const ChatSession& b) {
        return a.updated > b.updated;
    });
    return chats;
}

QString ChatStore::save(const ChatSession& chat) const {
    if (!QDir().mkpath(dir_))
        return QStringLiteral("cannot create %1").arg(dir_);
    return writeFileAtomic(pathFor(chat.id), QJsonDocument(chatToJson(chat)).toJson());
}

bool ChatStore::remove(const QString& id) const {
    if (writer_.activeThreadCount() == 0 && !QFile::exists(pathFor(id)))
        return false;      // nothing written, nothing queued
    writer_.waitForDone(); // a queued save must not bring the file back
    return QFile::remove(pathFor(id));
}

bool ChatStore::moveToTrash(const QString& id) const {
    writer_.waitForDone(); // a queued save must not bring the file back
    if (!QFile::exists(pathFor(id)) || !QDir().mkpath(trashDir()))
        return false;
    const QString target = trashDir() + QLatin1Char('/') + id + QStringLiteral(".json");
    QFile::remove(target);
    if (!QFile::rename(pathFor(id), target))
        return false;
    // The time it went to the trash (rename keeps the time of the last save).
    QFile moved(target);
    if (moved.open(QIODevice::ReadWrite))
        moved.setFileTime(QDateTime::currentDateTime(), QFileDevice::FileModificationTime);
    return true;
}

bool ChatStore::restoreFromTrash(const QString& id) const {
    const QString source = trashDir() + QLatin1Char('/') + id + QStringLiteral(".json");
    if (!QFile::exists(source))
        return false;
    writer_.waitForDone();
    if (QFile::exists(pathFor(id)))
        return false; // written again meanwhile: keep that one
    return QFile::rename(source, pathFor(id));
}

void ChatStore::emptyTrash(int days) const {
    const QDateTime old = QDateTime::currentDateTimeUtc().addDays(-days);
    for (const QFileInfo& f :
         QDir(trashDir()).entryInfoList({QStringLiteral("*.json")}, QDir::Files))
        if (f.lastModified().toUTC() < old)
            QFile::remove(f.absoluteFilePath());
}

} // namespace folio::ui
