#pragma once
// The chat file format: versioned JSON ("format": "folio-chat", "version": 1) holding the
// messages with their stats, tool calls and results, the system prompt, the sampling settings
// and the chat's data sources with its Tools switch (optional fields: files written before they
// existed still read, and they stay version 1). Also the body of the JSON export.

#include "chat/chat_session.h"

#include <QJsonObject>
#include <QString>

namespace folio::ui {

inline constexpr int kChatFormatVersion = 1;

QJsonObject chatToJson(const ChatSession& chat);
// False with a message in `error` for a file that is not a chat of a version we can read.
bool chatFromJson(const QJsonObject& json, ChatSession& chat, QString* error);

QJsonObject settingsToJson(const GenerationSettings& s);
GenerationSettings settingsFromJson(const QJsonObject& json);

} // namespace folio::ui
