#pragma once
// Writes a chat transcript to disk. Writes are atomic (QSaveFile: temp file, fsync, rename), so
// a failed export never destroys an earlier file.

#include "chat/chat_message.h"

#include <QList>
#include <QString>

namespace folio::ui {

QString transcriptToMarkdown(const QString& title, const QList<ChatMessage>& messages);

// Returns an empty string on success, else a message for the user.
QString writeTextFileAtomic(const QString& path, const QString& text);

} // namespace folio::ui
