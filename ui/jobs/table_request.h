#pragma once
// The question "Extract table" asks the model about an image: one user turn with the image
// attached and an instruction that pins the answer to a strict Markdown pipe table (what
// pipeline/markdown_table parses), answered greedily.

#include "core/chat/generation_settings.h"
#include "core/pipeline/chat_turn.h"

#include <QList>
#include <QString>

namespace folio::ui {

// The exact instruction sent with the image.
QString tableExtractionInstruction();
// The conversation: a system turn and the user turn carrying `imagePath`.
QList<ChatTurn> tableExtractionTurns(const QString& imagePath);
// Greedy (the same image gives the same table), long enough for a few dozen rows.
GenerationSettings tableExtractionSettings();

} // namespace folio::ui
