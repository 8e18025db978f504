#include "chat/chat_session.h"

#include "pipeline/prompt_builder.h"

#include <QObject>
#include <QUuid>

namespace folio::ui {

ChatSession ChatSession::create() {
    ChatSession c;
    c.id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    c.systemPrompt = defaultSystemPrompt();
    c.created = c.updated = QDateTime::currentDateTime();
    return c;
}

QString ChatSession::displayTitle() const {
    if (!title.isEmpty())
        return title;
    for (const ChatMessage& m : messages) {
        if (m.role == ChatMessage::Role::User) {
            QString t = m.text.simplified();
            if (t.size() > 48)
                t = t.left(47) + QChar(0x2026);
            return t;
        }
    }
    return QObject::tr("New chat");
}

QList<CitedDocument> citableDocuments(const QList<ChatDocument>& documents) {
    QList<CitedDocument> out;
    for (const ChatDocument& d : documents)
        if (!d.isImage)
            out.append({d.fingerprint, d.title, d.pageCount});
    return out;
}

} // namespace folio::ui
