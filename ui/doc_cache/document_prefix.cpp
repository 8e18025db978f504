#include "doc_cache/document_prefix.h"

#include "pipeline/prompt_builder.h"

namespace folio::ui {

QStringList DocumentPrefix::fingerprints() const {
    QStringList out;
    for (const PrefixDocument& d : documents)
        out << d.fingerprint;
    return out;
}

QStringList DocumentPrefix::titles() const {
    QStringList out;
    for (const PrefixDocument& d : documents)
        out << d.title;
    return out;
}

DocumentPrefix documentPrefix(const QString& systemPrompt, const QList<Document>& documents) {
    DocumentPrefix prefix;
    QList<SourceDocument> sources;
    int number = 0; // labelled as conversation_prompt labels them: the chat's PDFs in order
    for (const Document& d : documents) {
        if (d.kind != Document::Kind::Pdf)
            continue;
        ++number;
        if (d.state != Document::State::Ready)
            continue;
        sources.append({d.title, d.pageTexts, false, {}, number});
        prefix.documents.append({d.fingerprint, d.title, buildSystemPrompt(systemPrompt, sources)});
    }
    prefix.systemTurn = buildSystemPrompt(systemPrompt, sources);
    return prefix;
}

} // namespace folio::ui
