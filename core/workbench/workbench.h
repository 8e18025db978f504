#pragma once
// The workbench's data, without widgets: the chats (ChatLibrary), every file read for them
// (LoadedDocuments) and the current chat's documents (ChatDocuments), kept in step — the
// documents shown are the current chat's (another chat: its list at once), and what is edited
// in them is saved with the chat. The window makes one and hands its parts to the panes (views)
// and controllers; a question's documents are found here, for whichever chat asked it.

#include "core/chat/chat_session.h"
#include "core/documents/document.h"

#include <QObject>
#include <QStringList>

namespace folio::ui {

class ChatDocuments;
class ChatLibrary;
class LoadedDocuments;

class Workbench : public QObject {
    Q_OBJECT
public:
    explicit Workbench(QObject* parent = nullptr);
    ~Workbench() override;

    ChatLibrary* chats() const { return chats_; }
    LoadedDocuments* loadedDocuments() const { return loaded_; }
    ChatDocuments* documents() const { return documents_; }

    // The documents a question of `chat` carries (the current chat's as ChatDocuments has
    // them; another chat's as read for every chat: one that changed since stays out), and the
    // titles of those still being read.
    QList<Document> documentsOf(const ChatSession& chat) const;
    QStringList loadingOf(const ChatSession& chat) const;

private:
    ChatLibrary* chats_ = nullptr;
    LoadedDocuments* loaded_ = nullptr;
    ChatDocuments* documents_ = nullptr;
};

} // namespace folio::ui
