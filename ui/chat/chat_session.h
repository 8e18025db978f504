#pragma once
// One chat: its messages, its own system prompt and sampling settings.

#include "backend/generation_settings.h"
#include "chat/chat_message.h"

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
    QList<ChatMessage> messages;
    // Files the read-only SQL tool may query (one SQLite database, or CSV files) and whether
    // the model may call it ("Tools"; on by default once a data source is attached).
    QStringList dataSources;
    bool toolsEnabled = true;
    QDateTime created;
    QDateTime updated;

    // A new empty chat with a fresh id and the default system prompt.
    static ChatSession create();
    // The title shown in the chat list: the explicit title, else the first question.
    QString displayTitle() const;
    // The data sources the next answer may query: none when tools are off.
    QStringList activeDataSources() const { return toolsEnabled ? dataSources : QStringList(); }
};

} // namespace folio::ui
