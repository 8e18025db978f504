#pragma once
// The request for the next answer of a chat: its system prompt with the ready documents (pages
// marked), the conversation's questions and answers, the open charts with the question being
// asked, and the oldest turns left out when the context would overflow.

#include "backend/engine_worker_types.h"
#include "chat/chat_session.h"
#include "documents/document.h"

#include <QList>

namespace folio::ui {

struct PromptPlan {
    QList<ChatTurn> turns;
    int droppedTurns = 0;
    qint64 characters = 0; // of every turn, to measure characters per token afterwards
};

// The prompt that asks `question` in `chat`: the conversation before it goes along (a last user
// message of the chat is the question itself, as the chat pane shows it while it is answered).
// `contextLimit` <= 0: not known yet (nothing is dropped).
PromptPlan planPrompt(const ChatSession& chat, const QString& question,
                      const QList<Document>& documents, qint64 contextLimit, double charsPerToken);

} // namespace folio::ui
