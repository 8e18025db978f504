#include "chat/conversation_prompt.h"

#include "chat/context_fit.h"
#include "pipeline/prompt_builder.h"

namespace folio::ui {

PromptPlan planPrompt(const ChatSession& chat, const QString& question,
                      const QList<Document>& documents, qint64 contextLimit, double charsPerToken) {
    QList<SourceDocument> sources;
    QStringList images;
    for (const Document& d : documents) {
        if (d.state != Document::State::Ready)
            continue;
        if (d.kind == Document::Kind::Pdf)
            sources.append({d.title, d.pageTexts});
        else
            images << d.path;
    }
    PromptPlan plan;
    plan.turns.append(
        {QStringLiteral("system"), buildSystemPrompt(chat.systemPrompt, sources), {}});
    const QList<ChatMessage>& messages = chat.messages;
    qsizetype before = messages.size();
    if (before > 0 && messages.last().role == ChatMessage::Role::User)
        --before; // the question
    for (qsizetype i = 0; i < before; ++i) {
        const ChatMessage& m = messages[i];
        if (m.role == ChatMessage::Role::User)
            plan.turns.append({QStringLiteral("user"), m.text, {}});
        else if (m.role == ChatMessage::Role::Assistant && !m.text.isEmpty())
            plan.turns.append({QStringLiteral("assistant"), m.text, {}});
    }
    // Charts go with the question (used when a vision projector is loaded).
    plan.turns.append({QStringLiteral("user"), question, images});
    if (contextLimit > 0)
        plan.droppedTurns = fitTurnsToContext(
            plan.turns, qMax<qint64>(1, contextLimit - chat.settings.maxTokens), charsPerToken);
    for (const ChatTurn& t : plan.turns)
        plan.characters += t.content.size();
    return plan;
}

} // namespace folio::ui
