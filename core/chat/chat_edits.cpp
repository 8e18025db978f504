#include "core/chat/chat_edits.h"

#include "core/chat/message_versions.h"

namespace folio::ui {

ChatMessage& appendMessage(ChatSession& chat, ChatMessage message) {
    if (message.role == ChatMessage::Role::Assistant)
        message.citedDocuments = citableDocuments(chat.documents);
    message.id = nextMessageId(chat);
    message.parentId = chat.messages.isEmpty() ? 0 : chat.messages.last().id;
    chat.messages.append(std::move(message));
    return chat.messages.last();
}

bool moveWaitingQuestionLast(ChatSession& chat, const QString& notice,
                             const QStringList& attachments) {
    auto& messages = chat.messages;
    if (messages.size() < 2 || messages.last().role != ChatMessage::Role::Notice ||
        messages[messages.size() - 2].role != ChatMessage::Role::User)
        return false;
    ChatMessage waiting = messages.takeLast();
    waiting.text = notice;
    messages.last().attachments = attachments;
    messages.insert(messages.size() - 1, waiting);
    // Linked in the new order; earlier versions of the question stay its siblings.
    const qint64 oldParent = messages.last().parentId;
    const qint64 noticeId = messages[messages.size() - 2].id;
    for (ChatMessage& other : chat.otherVersions)
        if (other.parentId == oldParent && other.role == ChatMessage::Role::User)
            other.parentId = noticeId;
    linkMessages(chat);
    return true;
}

bool prepareRegenerate(ChatSession& chat) {
    auto& messages = chat.messages;
    int question = -1;
    for (qsizetype i = messages.size() - 1; i >= 0 && question < 0; --i)
        if (messages[i].role == ChatMessage::Role::User)
            question = int(i);
    if (question < 0)
        return false;
    bool keep = false;
    for (qsizetype i = question + 1; i < messages.size(); ++i)
        keep = keep || (messages[i].role == ChatMessage::Role::Assistant &&
                        (!messages[i].text.isEmpty() || !messages[i].toolCalls.isEmpty()));
    if (keep)
        branchAt(chat, question + 1);
    else
        messages.erase(messages.begin() + question + 1, messages.end());
    return true;
}

bool isRegeneration(const ChatSession& chat) {
    if (chat.messages.isEmpty() || chat.messages.last().role != ChatMessage::Role::User)
        return false;
    const qint64 question = chat.messages.last().id;
    for (const ChatMessage& other : chat.otherVersions)
        if (other.parentId == question && other.role == ChatMessage::Role::Assistant)
            return true;
    return false;
}

bool setQuestionContextNote(ChatSession& chat, const QString& note, int leftOutTurns) {
    auto& messages = chat.messages;
    for (qsizetype i = messages.size() - 1; i >= 0; --i) {
        if (messages[i].role != ChatMessage::Role::User)
            continue;
        if (messages[i].contextNote == note && messages[i].leftOutTurns == leftOutTurns)
            return false;
        messages[i].contextNote = note;
        messages[i].leftOutTurns = leftOutTurns;
        return true;
    }
    return false;
}

} // namespace folio::ui
