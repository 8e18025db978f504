#pragma once
// Keeps a conversation inside the model's context: the oldest question/answer turns are left
// out of the prompt (never the system turn with the documents, never the question being asked)
// until the estimated prompt plus the answer fits. Tokens are estimated from characters, with a
// characters-per-token ratio measured on the previous answer of the same model.

#include "backend/engine_worker_types.h"

#include <QList>

namespace folio::ui {

inline constexpr double kDefaultCharsPerToken = 4.0;

qint64 estimateTurnTokens(const QList<ChatTurn>& turns, double charsPerToken);
// Returns how many turns were dropped. `budgetTokens` <= 0: no limit.
int fitTurnsToContext(QList<ChatTurn>& turns, qint64 budgetTokens, double charsPerToken);

} // namespace folio::ui
