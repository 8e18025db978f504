#pragma once
// The request for the next answer of a chat: its system prompt with the ready documents (all
// their pages, or the pages chosen for the question when they do not fit), the conversation's
// questions and answers (the oldest left out when the context would overflow), and the question
// being asked with the images attached to it — counted exactly when the counter is
// (context_fit.h), and a note for the question saying what was left out.

#include "backend/engine_worker_types.h"
#include "core/chat/chat_session.h"
#include "core/documents/document.h"
#include "core/pipeline/page_render.h"
#include "core/pipeline/page_selection.h"
#include "core/pipeline/token_counter.h"

#include <QHash>
#include <QList>
#include <QSet>

namespace folio::ui {

struct PromptPlan {
    QList<ChatTurn> turns;
    int droppedTurns = 0;
    // The chat messages (indexes into chat.messages) whose turns were left out, oldest first.
    QList<int> droppedMessages;
    QList<DocumentPages> pages; // per document (PDFs, in the chat's order): what went in
    qint64 promptTokens = 0;    // counted by the counter the plan was made with
    bool exact = false;         // the counter was the model's tokenizer
    qint64 characters = 0;      // of every turn, to measure characters per token afterwards
    // Not empty when the question cannot run: what is wrong and what to do (turns is empty).
    QString error;
    // For the question (ChatMessage::contextNote): the pages that went in when not all did
    // ("Report: pages 1–4, 37–52, 118 of 236"), the turns left out ("2 earlier turns left
    // out") and scanned pages that went without their image ("scanned page 8 left out: no
    // vision projector is loaded"); empty when everything went in.
    QString contextNote;
    int pageImages = 0; // scanned pages that went in as images
};

struct PromptInput {
    ChatSession chat;
    QString question;
    QList<Document> documents;
    qint64 contextLimit = 0; // <= 0: not known yet (everything goes in)
    // Pages pinned per document path (1-based), e.g. parsePageRanges of the user's text.
    QHash<QString, QList<int>> pinnedPages;
    // Scanned pages (no text layer) go in as images at their place, rendered on the projector's
    // canvas into pageImageDir (page_images.h): the embedded engine has its vision projector.
    // false: the question's note names them as left out.
    bool readScannedPages = false;
    PageRenderParams renderParams = {};
    QString pageImageDir = {};
    // The model sees images (a projector, or a server that takes them): the question's attached
    // images (ChatMessage::images) go with it; false: the note says they were left out.
    bool acceptsImages = true;
    // Documents (paths) whose scanned pages the user keeps from the vision model.
    QSet<QString> scannedPagesOff = {};
};

// The prompt that asks `question` in `chat`: the conversation before it goes along (a last user
// message of the chat is the question itself, as the chat pane shows it while it is answered).
// Pages cited in the chat's earlier answers rank first among the unpinned pages of the document
// each citation names. Documents are labelled by their place among the chat's PDFs (a missing
// one keeps its number), as the transcript resolves citations.
PromptPlan planPrompt(const PromptInput& input, const TokenCounter& counter, PageTokenCache& cache);

// The note of a plan (see PromptPlan::contextNote); `scannedLeftOut`: per document of `pages`,
// the scanned pages (1-based) that went in without their image, with why.
struct ScannedLeftOut {
    QList<int> pages;
    QString reason;
};
QString contextNoteFor(const QList<DocumentPages>& pages, const QList<int>& droppedMessages,
                       const QList<ScannedLeftOut>& scannedLeftOut = {});

} // namespace folio::ui
