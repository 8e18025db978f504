#pragma once
// Changes to a chat's messages that the Chat pane makes as the user asks, answers stream in and
// questions wait: plain functions over a ChatSession, so that they are tested without widgets.

#include "core/chat/chat_session.h"

namespace folio::ui {

// Appends `message` to the chosen branch: it gets the next id and the last message as its
// parent; an answer records the documents it can cite (by identity, not position).
ChatMessage& appendMessage(ChatSession& chat, ChatMessage message);
// A question that waited for its documents goes last again (the prompt takes the last user
// message as the question), with `attachments`, the documents it waited for; the notice that
// said it was waiting stays above it, its text now `notice`. False when the chat does not end
// with that question and notice.
bool moveWaitingQuestionLast(ChatSession& chat, const QString& notice,
                             const QStringList& attachments);
// Before the last question is asked again: its answer (and what followed it) is kept as a
// version when there is something in it, else dropped. False when the chat has no question.
bool prepareRegenerate(ChatSession& chat);
// True when the chat's last message is a question that was answered before (regenerate kept
// that answer as a version): the next answer is another try at it.
bool isRegeneration(const ChatSession& chat);
// Puts the question's context note (ChatMessage::contextNote) and the earlier turns its prompt
// left out on the last user message. False when nothing changed.
bool setQuestionContextNote(ChatSession& chat, const QString& note, int leftOutTurns);

} // namespace folio::ui
