#include "pipeline/prompt_builder.h"

namespace folio::ui {

QString defaultSystemPrompt() {
    return QStringLiteral("You are Folio, an analyst's assistant. Answer from the documents below "
                          "and cite pages as [p. N].");
}

QString documentContext(const QList<SourceDocument>& documents) {
    QString context;
    for (const SourceDocument& d : documents) {
        context += QStringLiteral("[document: %1]\n").arg(d.title);
        for (qsizetype i = 0; i < d.pageTexts.size(); ++i)
            context += QStringLiteral("[page %1]\n%2\n").arg(i + 1).arg(d.pageTexts[i].trimmed());
    }
    return context;
}

QString buildSystemPrompt(const QString& systemPrompt, const QList<SourceDocument>& documents) {
    const QString docs = documentContext(documents);
    return docs.isEmpty() ? systemPrompt : systemPrompt + QStringLiteral("\n\n") + docs;
}

QString summaryQuestion() {
    return QStringLiteral("Summarize the documents above for an analyst: the key figures, the "
                          "main risks and the outlook, as Markdown with short sections and "
                          "bullet lists. Cite pages as [p. N].");
}

} // namespace folio::ui
