#pragma once
// A message of a chat transcript, with the figures of the answer that produced it.

#include "core/chat/citations.h"
#include "core/chat/message_figures.h"
#include "core/chat/question_image.h"
#include "core/chat/tool_call.h"

#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>

namespace folio::ui {

// What the engine reported for one answer (zero for messages that are not answers).
struct MessageStats {
    qint64 promptTokens = 0;
    qint64 reusedTokens = 0;
    qint64 generatedTokens = 0;
    double ttftMs = 0;
    // Of ttftMs: the time until the question's images were encoded by the vision model (0: no
    // image, or all found in the image cache at once). A first vision answer's TTFT is mostly
    // this, and the line under the answer says so (issue #48 §13).
    double imageMs = 0;
    double prefillTps = 0;
    double decodeTps = 0;
    QString stopReason; // "eos" | "stop" | "length" | "cancelled" | "error"; empty: none yet
};

struct ChatMessage {
    enum class Role { System, User, Assistant, Notice };
    Role role = Role::User;
    QString text;
    QDateTime time;
    QStringList attachments;         // file names of the documents in context when the user sent it
    MessageStats stats;              // assistant messages
    QList<ToolCallRecord> toolCalls; // assistant messages: the tools it called on the way
    // Assistant messages cut off by an error (the text is what arrived), or with no answer at
    // all (empty text: the request failed or could not be sent); the error, for the user.
    QString interrupted;
    // User messages: what the prompt of this question left out — the pages of each document
    // that went in when not all did ("pages 1–4, 37–52, 118 of 236") and the earlier turns left
    // out ("2 earlier turns left out"); empty when everything went in.
    QString contextNote;
    // User messages: how many earlier turns the prompt left out (the count contextNote words in
    // the UI's language); the transcript marks where they end.
    int leftOutTurns = 0;
    // Versions (chat file version 3): the message's number in its chat (1, 2, …: the order they
    // were made in; 0 until the chat gives it one) and the number of the message before it in
    // its branch (0: the first message). Messages with the same parent are versions of each
    // other (an edited question, a regenerated answer); see message_versions.h.
    qint64 id = 0;
    qint64 parentId = 0;
    // User messages: the images attached to this question (only these went with it).
    QList<QuestionImage> images = {};
    // Assistant messages: the chat's PDFs in prompt order when the answer was asked for, so
    // that its "[doc N, p. K]" keeps naming the document it was written about after the chat's
    // documents are removed or reordered. Empty in chats saved before: the chat's documents
    // as they are now.
    QList<CitedDocument> citedDocuments = {};
    // Assistant messages: each figure of the answer checked against the pages it cites
    // (issue #46 §2), in the answer's order; empty until checked (and in chats saved before).
    QList<CheckedFigure> figures = {};
};

QString roleName(ChatMessage::Role role);
// "user" | "assistant" | "system" | "notice" (the stable names used in files).
QString roleKey(ChatMessage::Role role);
bool roleFromKey(const QString& key, ChatMessage::Role& out);

// "12 prompt tokens (0 reused) · TTFT 35 ms · prefill 410.2 t/s · decode 55.0 t/s · 40 tokens
// · finished"; empty when the message has no stats or nothing was run ("stopped before an answer"
// when it was stopped then).
QString statsLine(const MessageStats& stats);
// Why an answer ended, in words ("finished" for the engine's "eos", "stopped at the length
// limit" for "length", …); a reason Folio does not know is shown as given.
QString stopReasonText(const QString& reason);
// "In the prompt: pages 1–4, 37 of 236 · 2 earlier turns left out"; empty without a note.
QString contextNoteLine(const ChatMessage& message);

} // namespace folio::ui
