#pragma once
// The engine Request of a chat turn (messages and sampling), without callbacks: the same for the
// embedded engine and a remote server, and for every round of a tool-using turn.

#include "backend/engine_worker_types.h"
#include "core/chat/generation_settings.h"
#include "folio/engine.h"

#include <QList>

namespace folio::ui {

// `withImages`: the user turns' image files go along (a vision projector is loaded).
// `speculation`: the application allows prompt-lookup speculation.
Request buildRequest(const QList<ChatTurn>& turns, const GenerationSettings& settings,
                     bool withImages, bool speculation);

} // namespace folio::ui
