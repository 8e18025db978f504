#pragma once
// The chat file format: versioned JSON ("format": "folio-chat", "version": 2) holding the
// messages with their stats, tool calls and results, the system prompt, the sampling settings,
// the chat's data sources with its Tools switch and (version 2) its documents: "documents" is an
// array of {"path", "fingerprint", "title", "pages", "is_image", "pinned_pages"} in prompt order.
// Version 1 files (no "documents"; a question's "attachments" name documents by title only, with
// no path to reopen) still read: they migrate to a chat without documents and keep their
// attachment titles. Also the body of the JSON export.

#include "chat/chat_session.h"

#include <QJsonObject>
#include <QString>

namespace folio::ui {

inline constexpr int kChatFormatVersion = 2;

QJsonObject chatToJson(const ChatSession& chat);
// False with a message in `error` for a file that is not a chat of a version we can read.
bool chatFromJson(const QJsonObject& json, ChatSession& chat, QString* error);

QJsonObject documentToJson(const ChatDocument& d);
ChatDocument documentFromJson(const QJsonObject& json);

QJsonObject settingsToJson(const GenerationSettings& s);
GenerationSettings settingsFromJson(const QJsonObject& json);

} // namespace folio::ui
