#include "chat/context_fit.h"

#include <QCoreApplication>

namespace folio::ui {

namespace {

QString tr(const char* text) {
    // The context lupdate gives a tr() of a function in namespace folio::ui.
    return QCoreApplication::translate("folio::ui", text);
}

// Template markers around a turn, besides its text (the count is corrected afterwards).
constexpr qint64 kTurnOverhead = 8;
// Room left when pages must shrink after counting: token boundaries between pages differ a
// little from the pages counted one by one.
constexpr qint64 kShrinkMargin = 16;
constexpr int kMaxRounds = 12;

QList<ChatTurn> assemble(const FitInput& in, const PageSelection& pages, int firstKept) {
    QList<ChatTurn> turns;
    // Scanned pages read as images sit in the system turn at their markers.
    turns.append({QStringLiteral("system"), buildSystemPrompt(in.systemPrompt, pages.sources),
                  documentImages(pages.sources)});
    turns.append(in.history.mid(firstKept));
    turns.append(in.question);
    return turns;
}

// A conversation must not start with an answer.
int skipAnswers(const QList<ChatTurn>& history, int first) {
    while (first < history.size() && history[first].role == QLatin1String("assistant"))
        ++first;
    return first;
}

} // namespace

FitResult fitToContext(const FitInput& in, const TokenCounter& counter, PageTokenCache& cache) {
    FitResult r;
    if (in.contextLimit <= 0) { // nothing known to fit into
        r.pages = selectAllPages(in.documents, counter, cache);
        r.turns = assemble(in, r.pages, 0);
        r.promptTokens = counter.prompt(r.turns);
        return r;
    }
    const qint64 room = in.contextLimit - in.answerTokens;
    const qint64 bare =
        counter.prompt({{QStringLiteral("system"), in.systemPrompt, {}}, in.question});
    if (bare > room) {
        r.error = tr("This question cannot be answered: the question and the chat's system "
                     "prompt alone take %L1 tokens, and the model's context of %L2 tokens keeps "
                     "%L3 for the answer. Shorten the question or the system prompt, lower the "
                     "answer length in the chat's settings, or load the model with a larger "
                     "context.")
                      .arg(bare)
                      .arg(in.contextLimit)
                      .arg(in.answerTokens);
        return r;
    }
    const qint64 space = room - bare; // for the documents and the conversation
    QList<qint64> turnCost;
    qint64 historyCost = 0;
    for (const ChatTurn& t : in.history) {
        turnCost << counter.text(t.content) + kTurnOverhead;
        historyCost += turnCost.last();
    }
    // The oldest turn to keep so the history costs at most `limit`.
    auto firstWithin = [&](qint64 limit) {
        int first = 0;
        qint64 cost = historyCost;
        while (first < turnCost.size() && cost > limit)
            cost -= turnCost[first++];
        return skipAnswers(in.history, first);
    };
    auto keptCost = [&](int first) {
        qint64 cost = 0;
        for (int i = first; i < turnCost.size(); ++i)
            cost += turnCost[i];
        return cost;
    };

    PageSelection pages = selectAllPages(in.documents, counter, cache);
    int first = 0;
    bool partial = false;
    if (pages.tokens + historyCost > space) {
        if (pages.tokens <= space) {
            first = firstWithin(space - pages.tokens);
        } else {
            partial = true;
            first = firstWithin(space / 2);
            pages = selectPages(in.documents, in.question.content, in.citedPages,
                                space - keptCost(first), counter, cache);
        }
    }
    for (int round = 0; round < kMaxRounds; ++round) {
        QList<ChatTurn> turns = assemble(in, pages, first);
        const qint64 total = counter.prompt(turns);
        if (total <= room) {
            r.turns = turns;
            r.pages = pages;
            r.droppedTurns = first;
            r.promptTokens = total;
            return r;
        }
        const qint64 over = total - room;
        if (partial && pages.pages() > 0) {
            pages = selectPages(in.documents, in.question.content, in.citedPages,
                                pages.tokens - over - kShrinkMargin, counter, cache);
        } else if (first < in.history.size()) {
            // The whole documents stay (their prefix is cached); the oldest turns leave.
            qint64 freed = 0;
            while (first < in.history.size() && freed < over)
                freed += turnCost[first++];
            first = skipAnswers(in.history, first);
        } else if (!partial && pages.pages() > 0) {
            partial = true;
            pages = selectPages(in.documents, in.question.content, in.citedPages,
                                pages.tokens - over - kShrinkMargin, counter, cache);
        } else {
            break;
        }
    }
    r.error = tr("This question cannot be answered: its prompt does not fit the model's context "
                 "of %L1 tokens even without the documents and the earlier conversation. "
                 "Lower the answer length in the chat's settings or load the model with a larger "
                 "context.")
                  .arg(in.contextLimit);
    return r;
}

} // namespace folio::ui
