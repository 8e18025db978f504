#pragma once
// The chat file format: versioned JSON ("format": "folio-chat", "version": 3) holding the
// messages with their stats, tool calls and results, the system prompt, the sampling settings,
// the chat's data sources with its Tools switch and (version 2) its documents: "documents" is an
// array of {"path", "fingerprint", "title", "pages", "is_image", "pinned_pages"} in prompt order.
// Version 1 files (no "documents"; a question's "attachments" name documents by title only, with
// no path to reopen) still read: they migrate to a chat without documents and keep their
// attachment titles. Version 3 keeps versions of messages (message_versions.h): every message
// has an "id" (1, 2, … in the order they were made) and a "parent" (the id of the message before
// it in its branch, 0 for the first); "messages" is the chosen branch, first to last, and
// "versions" (absent when there are none) holds the messages of the other branches. Versions 1
// and 2 read as one branch, numbered in order. Also the body of the JSON export (which leaves
// "versions" out: an export is the chosen branch). An answer's checked figures (issue #46 §2) are
// its "figures" (message_figures.h; absent in files saved before, which load without them).

#include "core/chat/chat_session.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QString>

namespace folio::ui {

inline constexpr int kChatFormatVersion = 3;

QJsonObject chatToJson(const ChatSession& chat);
// False with a message in `error` for a file that is not a chat of a version we can read.
bool chatFromJson(const QJsonObject& json, ChatSession& chat, QString* error);

QJsonObject documentToJson(const ChatDocument& d);
ChatDocument documentFromJson(const QJsonObject& json);

// An answer's checked figures, as `folio-cli check-figures -o` writes them ("doc" 1-based, null
// for none), plus where each figure stands in the text (reports keep them the same way).
QJsonArray figuresToJson(const QList<CheckedFigure>& figures);
QList<CheckedFigure> figuresFromJson(const QJsonArray& array);

QJsonObject settingsToJson(const GenerationSettings& s);
GenerationSettings settingsFromJson(const QJsonObject& json);

} // namespace folio::ui
