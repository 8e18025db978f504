#include "core/chat/chat_session.h"

#include "core/pipeline/prompt_builder.h"

#include <QFileInfo>
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

CitationTargets citationTargets(const QList<ChatDocument>& documents) {
    CitationTargets out;
    for (qsizetype i = 0; i < documents.size(); ++i) {
        const ChatDocument& d = documents[i];
        if (d.isImage)
            continue;
        out.documents.append({d.title, QFileInfo(d.path).fileName(), d.pageCount, d.fingerprint});
        out.rows << int(i);
    }
    return out;
}

QList<CitedDocument> citableDocuments(const QList<ChatDocument>& documents) {
    QList<CitedDocument> out;
    for (const ChatDocument& d : documents)
        if (!d.isImage)
            out.append({d.fingerprint, d.title, d.pageCount});
    return out;
}

} // namespace folio::ui
