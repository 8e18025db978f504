#include "core/chat/chat_library.h"

#include <QDateTime>
#include <QFile>

#include <utility>

namespace folio::ui {

ChatLibrary::ChatLibrary(QObject* parent) : QObject(parent) {
    chats_.append(ChatSession::create());
    currentId_ = chats_[0].id;
}

void ChatLibrary::followCurrent() {
    if (current().id == currentId_)
        return;
    currentId_ = current().id;
    Q_EMIT currentChanged();
}

ChatLibrary::~ChatLibrary() = default;

QStringList ChatLibrary::open(const QString& dir) {
    store_ = std::make_unique<ChatStore>(dir);
    store_->emptyTrash(ChatStore::kTrashDays);
    QStringList errors;
    QList<ChatSession> loaded = store_->loadAll(&errors);
    if (!loaded.isEmpty()) {
        chats_ = loaded;
        current_ = 0;
    }
    followCurrent();
    return errors;
}

bool ChatLibrary::isEmpty(const ChatSession& chat) {
    return chat.messages.isEmpty() && chat.otherVersions.isEmpty() && chat.dataSources.isEmpty() &&
           chat.documents.isEmpty();
}

int ChatLibrary::indexOf(const QString& id) const {
    for (qsizetype i = 0; i < chats_.size(); ++i)
        if (chats_[i].id == id)
            return int(i);
    return -1;
}

ChatSession* ChatLibrary::find(const QString& id) {
    const int index = indexOf(id);
    return index < 0 ? nullptr : &chats_[index];
}

void ChatLibrary::setWork(const QString& id, Work w) {
    if (work(id) == w)
        return;
    if (w == Work::None)
        work_.remove(id);
    else
        work_.insert(id, w);
    Q_EMIT workChanged(id);
}

void ChatLibrary::select(int index) {
    if (isValid(index))
        current_ = index;
    followCurrent();
}

void ChatLibrary::newChat() {
    // Reuse an empty chat rather than piling them up.
    for (qsizetype i = 0; i < chats_.size(); ++i) {
        if (chats_[i].messages.isEmpty() && chats_[i].documents.isEmpty()) {
            current_ = int(i);
            followCurrent();
            return;
        }
    }
    chats_.prepend(ChatSession::create());
    current_ = 0;
    followCurrent();
}

QString ChatLibrary::remove(int index) {
    if (!isValid(index))
        return {};
    // The chat deleted before stays in the trash; only the last one can be brought back here.
    Deleted d{chats_[index], index};
    if (work_.remove(d.chat.id) > 0) // its owner stopped it (ChatPane::deleteChat)
        Q_EMIT workChanged(d.chat.id);
    if (store_)
        store_->moveToTrash(d.chat.id);
    chats_.removeAt(index);
    if (chats_.isEmpty())
        chats_.append(ChatSession::create());
    current_ = qBound(0, index < current_ ? current_ - 1 : current_, int(chats_.size()) - 1);
    const QString title = d.chat.displayTitle();
    deleted_ = std::move(d);
    followCurrent();
    return title;
}

bool ChatLibrary::restoreDeleted(bool keepCurrent) {
    if (!deleted_)
        return false;
    Deleted d = std::move(*deleted_);
    deleted_.reset();
    if (store_)
        store_->restoreFromTrash(d.chat.id);
    if (!keepCurrent && chats_.size() == 1 && isEmpty(chats_[0]))
        chats_.clear();
    const int index = qBound(0, d.index, int(chats_.size()));
    chats_.insert(index, d.chat);
    if (keepCurrent)
        current_ += index <= current_ ? 1 : 0;
    else
        current_ = index;
    if (store_ && !isEmpty(d.chat) && !QFile::exists(store_->pathFor(d.chat.id)))
        saveChat(d.chat); // it had no file yet, or the trash lost it: written from memory
    followCurrent();
    return true;
}

void ChatLibrary::rename(int index, const QString& title) {
    if (!isValid(index))
        return;
    chats_[index].title = title.trimmed();
    save(index);
}

void ChatLibrary::setSettings(const QString& systemPrompt, const GenerationSettings& settings) {
    current().systemPrompt = systemPrompt;
    current().settings = settings;
    save();
}

bool ChatLibrary::setDocuments(const QList<ChatDocument>& documents) {
    if (current().documents == documents)
        return false;
    current().documents = documents;
    save();
    Q_EMIT documentsChanged();
    return true;
}

void ChatLibrary::setDataSources(const QStringList& paths, bool toolsEnabled) {
    current().dataSources = paths;
    current().toolsEnabled = toolsEnabled;
    save();
}

void ChatLibrary::save(int index) {
    if (!store_)
        return;
    ChatSession& chat = chats_[isValid(index) ? index : current_];
    if (isEmpty(chat)) {
        store_->remove(chat.id);
        return;
    }
    chat.updated = QDateTime::currentDateTime();
    saveChat(chat);
}

void ChatLibrary::saveUnfinished(const QString& note, int index) {
    if (!store_ || !isValid(index) || isEmpty(chats_[index]))
        return;
    ChatSession copy = chats_[index];
    ChatMessage& last = copy.messages.last();
    if (last.role == ChatMessage::Role::Assistant && last.interrupted.isEmpty())
        last.interrupted = note;
    copy.updated = QDateTime::currentDateTime();
    saveChat(copy);
}

void ChatLibrary::saveChat(const ChatSession& chat) {
    // Serialized here, written (and synced) by the store's writer thread.
    store_->saveAsync(chat, this, [this](const QString& error) {
        if (!error.isEmpty())
            Q_EMIT storageFailed(tr("Cannot save the chat: %1").arg(error));
    });
}

void ChatLibrary::waitForSaves() {
    if (store_)
        store_->waitForSaves();
}

} // namespace folio::ui
