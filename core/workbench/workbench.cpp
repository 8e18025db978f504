// Workbench: the chats, the files read for them and the current chat's documents, and the
// two rules that keep them in step (see workbench.h).
#include "core/workbench/workbench.h"

#include "core/chat/chat_library.h"
#include "core/documents/chat_documents.h"
#include "core/documents/loaded_documents.h"

#include <QFileInfo>

#include <optional>
#include <utility>

namespace folio::ui {

Workbench::Workbench(QObject* parent) : QObject(parent) {
    chats_ = new ChatLibrary(this);
    loaded_ = new LoadedDocuments(this);
    documents_ = new ChatDocuments(loaded_, this);
    // What changes in the documents shown is the current chat's.
    connect(documents_, &ChatDocuments::documentsEdited, this,
            [this] { chats_->setDocuments(documents_->chatDocuments()); });
    // Another chat: its documents are shown instead.
    connect(chats_, &ChatLibrary::currentChanged, this,
            [this] { documents_->setDocuments(chats_->current().documents); });
}

Workbench::~Workbench() {
    // The list first (it follows the reads), then the reads (cancelled and waited for).
    delete std::exchange(documents_, nullptr);
    delete std::exchange(loaded_, nullptr);
    delete std::exchange(chats_, nullptr);
}

QList<Document> Workbench::documentsOf(const ChatSession& chat) const {
    if (chat.id == chats_->current().id)
        return documents_->documents();
    // Another chat (its question waited its turn while the user moved on): its documents as
    // read for every chat; one no longer what the chat was about (changed since) stays out.
    QList<Document> out;
    for (const ChatDocument& saved : chat.documents) {
        std::optional<Document> read = loaded_->find(saved.path);
        if (!read || read->state != Document::State::Ready)
            continue;
        if (!saved.fingerprint.isEmpty() && read->fingerprint != saved.fingerprint)
            continue;
        if (!saved.title.isEmpty())
            read->title = saved.title;
        out << *read;
    }
    return out;
}

QStringList Workbench::loadingOf(const ChatSession& chat) const {
    if (chat.id == chats_->current().id)
        return documents_->loadingTitles();
    QStringList titles;
    for (const ChatDocument& saved : chat.documents)
        if (loaded_->isReading(saved.path))
            titles << (saved.title.isEmpty() ? QFileInfo(saved.path).fileName() : saved.title);
    return titles;
}

} // namespace folio::ui
