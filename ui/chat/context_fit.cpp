#include "chat/context_fit.h"

namespace folio::ui {

namespace {
constexpr qint64 kTokensPerTurn = 8; // chat template markers
} // namespace

qint64 estimateTurnTokens(const QList<ChatTurn>& turns, double charsPerToken) {
    const double ratio = charsPerToken > 0.1 ? charsPerToken : kDefaultCharsPerToken;
    qint64 tokens = 0;
    for (const ChatTurn& t : turns)
        tokens += qint64(t.content.size() / ratio) + kTokensPerTurn;
    return tokens;
}

int fitTurnsToContext(QList<ChatTurn>& turns, qint64 budgetTokens, double charsPerToken) {
    if (budgetTokens <= 0)
        return 0;
    int dropped = 0;
    const qsizetype first = !turns.isEmpty() && turns.first().role == QLatin1String("system");
    // Keep at least the system turn and the last (current) question.
    while (turns.size() - first > 1 && estimateTurnTokens(turns, charsPerToken) > budgetTokens) {
        turns.removeAt(first);
        ++dropped;
    }
    // A conversation must not start with an answer.
    while (turns.size() - first > 1 && turns.at(first).role == QLatin1String("assistant")) {
        turns.removeAt(first);
        ++dropped;
    }
    return dropped;
}

} // namespace folio::ui
