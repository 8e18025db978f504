#pragma once
// Fits a question's prompt into the model's context with exact token counts (TokenCounter):
// the system turn with the documents, the conversation before the question, and the question.
// When the whole documents and the conversation do not fit, the oldest turns leave first while
// the whole documents still fit (the documents' prefix stays the same, so the engine's cache
// keeps it); when the documents alone do not fit, the conversation keeps at most half of the
// room and the documents get the pages that fit the rest (page_selection.h). The whole prompt
// is then counted; while it and the answer exceed the context, pages (or, with whole documents,
// the oldest turns) leave and it is counted again — so with an exact counter a planned request
// never fails for size. Slow with an exact counter on long documents: run it off the GUI
// thread.

#include "core/pipeline/chat_turn.h"
#include "core/pipeline/page_selection.h"
#include "core/pipeline/token_counter.h"

#include <QList>
#include <QString>

namespace folio::ui {

// Prompt characters per token before any answer has been measured (the Documents pane's
// estimate before a model's tokenizer counts).
inline constexpr double kDefaultCharsPerToken = 4.0;

struct FitInput {
    QString systemPrompt; // the chat's, without the documents
    QList<PageSource> documents;
    QList<QList<int>> citedPages; // per document, pages cited earlier in the chat
    QList<ChatTurn> history;      // the conversation before the question, oldest first
    ChatTurn question;
    qint64 contextLimit = 0; // <= 0: unknown (everything goes in)
    qint64 answerTokens = 0; // kept free for the answer
};

struct FitResult {
    QList<ChatTurn> turns; // system, the history kept, the question
    PageSelection pages;
    int droppedTurns = 0;    // the oldest turns of the history left out
    qint64 promptTokens = 0; // counter.prompt(turns)
    // Not empty when the question cannot run at all: what is wrong and what to do.
    QString error;
};

FitResult fitToContext(const FitInput& input, const TokenCounter& counter, PageTokenCache& cache);

} // namespace folio::ui
