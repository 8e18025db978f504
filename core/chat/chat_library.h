#pragma once
// The workbench's chats: the list (newest first), which one is current, each kept on disk by a
// ChatStore, and the chat deleted last while it can be brought back. The Chat pane is a view of
// it; the window and the jobs read chats here, never from a widget.

#include "core/chat/chat_session.h"
#include "core/chat/chat_store.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

namespace folio::ui {

class ChatLibrary : public QObject {
    Q_OBJECT
public:
    explicit ChatLibrary(QObject* parent = nullptr); // one empty chat, no store
    ~ChatLibrary() override;

    // Reads every chat from `dir` (created on first save) and makes the most recent one
    // current. Returns one line per unreadable file.
    QStringList open(const QString& dir);

    // What a chat is busy with. Questions and summaries run while the user reads, writes and
    // asks in other chats (issue #48 §7): each is kept to its own chat by the chat's id.
    enum class Work { None, Waiting, Answering, Summarizing };

    const QList<ChatSession>& chats() const { return chats_; }
    const ChatSession& current() const { return chats_[current_]; }
    // The current chat to change in place; save() writes it.
    ChatSession& current() { return chats_[current_]; }
    int currentIndex() const { return current_; }
    bool isValid(int index) const { return index >= 0 && index < chats_.size(); }
    // The place of the chat with id `id` in the list (it moves as chats come and go); -1: none.
    int indexOf(const QString& id) const;
    // The chat with id `id` to change in place; nullptr when it was deleted.
    ChatSession* find(const QString& id);

    Work work(const QString& id) const { return work_.value(id, Work::None); }
    bool isBusy(const QString& id) const { return work(id) != Work::None; }
    // Every chat busy with something.
    QStringList busyChats() const { return work_.keys(); }
    void setWork(const QString& id, Work w);

    void select(int index);
    // Makes an empty chat current: one already in the list, else a new one at the top.
    void newChat();
    // Removes a chat (the list keeps at least one, empty, chat); its file goes to the store's
    // trash, and the chat is remembered for restoreDeleted(). Returns the removed chat's title.
    QString remove(int index);
    bool hasDeleted() const { return deleted_.has_value(); }
    // Brings the chat removed last back (its file and its place in the list). With
    // `keepCurrent` (a question is being answered in the current chat) it goes in beside it;
    // otherwise it becomes current, replacing the empty chat that stood in for an empty list.
    bool restoreDeleted(bool keepCurrent);
    void forgetDeleted() { deleted_.reset(); }
    void rename(int index, const QString& title);
    void setSettings(const QString& systemPrompt, const GenerationSettings& settings);
    // False when nothing changed (and nothing is saved).
    bool setDocuments(const QList<ChatDocument>& documents);
    void setDataSources(const QStringList& paths, bool toolsEnabled);

    // Writes chat `index` (default: the current one) in the store's writer thread; an empty
    // chat is not worth a file (one with documents is) and its file goes.
    void save(int index = -1);
    // While an answer streams into chat `index`: writes what arrived so far, the answer
    // marked with `note` (ChatMessage::interrupted) in the file only, so that a crash or a kill
    // leaves the partial answer saying it was cut off; the answer's end saves it unmarked.
    void saveUnfinished(const QString& note, int index);
    // Blocks until queued saves are on disk (tests, shutdown).
    void waitForSaves();

    // True for a chat with nothing in it (no messages, versions, documents or data sources).
    static bool isEmpty(const ChatSession& chat);

Q_SIGNALS:
    void storageFailed(const QString& message);
    // Chat `id` started or ended some work (work(id) says which).
    void workChanged(const QString& id);
    // Another chat is current (selected, new, opened, or the current one deleted or brought
    // back): what shows the current chat's documents follows.
    void currentChanged();
    // The current chat's documents were replaced (setDocuments).
    void documentsChanged();

private:
    void saveChat(const ChatSession& chat);
    // Emits currentChanged() when the current chat is not the one it was.
    void followCurrent();

    std::unique_ptr<ChatStore> store_;
    QList<ChatSession> chats_;
    int current_ = 0;
    QString currentId_; // the current chat's id, as last reported
    struct Deleted {
        ChatSession chat;
        int index = 0;
    };
    std::optional<Deleted> deleted_;
    QHash<QString, Work> work_; // by chat id; chats at rest are not in it
};

} // namespace folio::ui
