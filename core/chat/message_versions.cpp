#include "core/chat/message_versions.h"

#include <algorithm>

namespace folio::ui {

namespace {

// The ids of the siblings of `message` (itself included), oldest first.
QList<qint64> siblingIds(const ChatSession& chat, const ChatMessage& message) {
    QList<qint64> ids;
    for (const QList<ChatMessage>* list : {&chat.messages, &chat.otherVersions})
        for (const ChatMessage& m : *list)
            if (m.parentId == message.parentId)
                ids.append(m.id);
    std::sort(ids.begin(), ids.end());
    return ids;
}

} // namespace

qint64 nextMessageId(const ChatSession& chat) {
    qint64 largest = 0;
    for (const QList<ChatMessage>* list : {&chat.messages, &chat.otherVersions})
        for (const ChatMessage& m : *list)
            largest = std::max(largest, m.id);
    return largest + 1;
}

void linkMessages(ChatSession& chat) {
    qint64 next = nextMessageId(chat);
    for (QList<ChatMessage>* list : {&chat.messages, &chat.otherVersions})
        for (ChatMessage& m : *list)
            if (m.id <= 0)
                m.id = next++;
    for (qsizetype i = 0; i < chat.messages.size(); ++i)
        chat.messages[i].parentId = i > 0 ? chat.messages[i - 1].id : 0;
}

VersionPosition versionOf(const ChatSession& chat, int index) {
    if (index < 0 || index >= chat.messages.size())
        return {};
    const ChatMessage& m = chat.messages[index];
    const QList<qint64> ids = siblingIds(chat, m);
    return {int(std::max<qsizetype>(0, ids.indexOf(m.id))),
            int(std::max<qsizetype>(1, ids.size()))};
}

void branchAt(ChatSession& chat, int index) {
    if (index < 0 || index >= chat.messages.size())
        return;
    for (qsizetype i = index; i < chat.messages.size(); ++i)
        chat.otherVersions.append(chat.messages[i]);
    chat.messages.erase(chat.messages.begin() + index, chat.messages.end());
}

bool switchVersion(ChatSession& chat, int index, int version) {
    if (index < 0 || index >= chat.messages.size())
        return false;
    const QList<qint64> ids = siblingIds(chat, chat.messages[index]);
    if (version < 0 || version >= ids.size() || ids[version] == chat.messages[index].id)
        return false;
    const qint64 target = ids[version];
    branchAt(chat, index);
    // Moves the latest message of otherVersions that `match`es back to the chosen branch.
    auto takeLatest = [&chat](auto match) {
        for (qsizetype i = chat.otherVersions.size() - 1; i >= 0; --i) {
            if (match(chat.otherVersions[i])) {
                chat.messages.append(chat.otherVersions.takeAt(i));
                return true;
            }
        }
        return false;
    };
    takeLatest([target](const ChatMessage& m) { return m.id == target; });
    // Under each message, the child that left the chosen branch last: the branch as it was
    // last seen.
    while (true) {
        const qint64 parent = chat.messages.last().id;
        if (!takeLatest([parent](const ChatMessage& m) { return m.parentId == parent; }))
            break;
    }
    return true;
}

} // namespace folio::ui
