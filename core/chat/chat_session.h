#pragma once
// One chat: its messages, its own system prompt and sampling settings.

#include "core/chat/chat_message.h"
#include "core/chat/generation_settings.h"
#include "core/documents/chat_document.h"

#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>

namespace folio::ui {

struct ChatSession {
    QString id; // stable, also the file name in the chat store
    QString title;
    QString systemPrompt;
    GenerationSettings settings;
    // The chosen branch, first message to last: what is shown, asked with and exported.
    QList<ChatMessage> messages;
    // Every message of the other branches (earlier versions of questions and answers and what
    // followed them), linked by ChatMessage::parentId; the order is the order they left the
    // chosen branch (message_versions.h).
    QList<ChatMessage> otherVersions;
    // Files the read-only SQL tool may query (one SQLite database, or CSV files) and whether
    // the model may call it ("Tools"; on by default once a data source is attached).
    QStringList dataSources;
    bool toolsEnabled = true;
    // The chat's documents, in prompt order (the Documents pane shows them).
    QList<ChatDocument> documents;
    QDateTime created;
    QDateTime updated;

    // A new empty chat with a fresh id and the default system prompt.
    static ChatSession create();
    // The title shown in the chat list: the explicit title, else the first question.
    QString displayTitle() const;
    // The data sources the next answer may query: none when tools are off.
    QStringList activeDataSources() const { return toolsEnabled ? dataSources : QStringList(); }
};

// The documents an answer can cite: the chat's PDFs in prompt order ("doc 1" is the first).
QList<CitedDocument> citableDocuments(const QList<ChatDocument>& documents);
// The same PDFs as citations resolve against them, with their rows among `documents`.
CitationTargets citationTargets(const QList<ChatDocument>& documents);

} // namespace folio::ui
