#pragma once
// Keeps chats on disk: one versioned JSON file per chat in a folder (by default
// <AppDataLocation>/chats), written atomically (QSaveFile), read back at start.

#include "core/chat/chat_session.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <QThreadPool>

#include <functional>

namespace folio::ui {

class ChatStore {
public:
    explicit ChatStore(QString dir);
    ~ChatStore(); // waits for queued saves
    static QString defaultDir();
    static constexpr int kStaleTempSeconds = 2;

    const QString& dir() const { return dir_; }
    // Every readable chat, most recently updated first; unreadable files are reported in
    // `errors` (one line each) and left alone. Temporary files of saves cut short (a crash) are
    // removed when older than kStaleTempSeconds.
    QList<ChatSession> loadAll(QStringList* errors = nullptr) const;
    // Empty string on success, else a message for the user.
    QString save(const ChatSession& chat) const;
    // Saves on the store's own thread, in the order of the calls; `done` runs on `context`'s
    // thread with the result of save().
    void saveAsync(const ChatSession& chat, QObject* context,
                   std::function<void(const QString& error)> done);
    // Blocks until every queued save has been written.
    void waitForSaves();
    bool remove(const QString& id) const;
    // Deleting a chat that can be undone: its file moves to trashDir() (replacing an older one
    // of the same id) and back. False when there was no file to move.
    bool moveToTrash(const QString& id) const;
    bool restoreFromTrash(const QString& id) const;
    QString trashDir() const { return dir_ + QStringLiteral("/trash"); }
    // Removes chats that have been in the trash longer than `days` (at start).
    void emptyTrash(int days) const;
    static constexpr int kTrashDays = 30;
    QString pathFor(const QString& id) const;

private:
    QString dir_;
    mutable QThreadPool writer_; // one thread: saves stay in order
};

} // namespace folio::ui
