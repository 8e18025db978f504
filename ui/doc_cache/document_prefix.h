#pragma once
// The document prefix of a chat's prompts: its system turn (the system prompt followed by the
// documents, pipeline/prompt_builder buildSystemPrompt — the one function that makes it), and
// for each document the system turn cut after it, so it can be read one document at a time
// (each step reuses the ones before it, and adding a document at the end reuses them all).

#include "documents/document.h"

#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

namespace folio::ui {

struct PrefixDocument {
    QString fingerprint;
    QString title;
    QString systemThrough; // the system turn with the documents up to this one
};

struct DocumentPrefix {
    QString systemTurn; // exactly the system turn of the chat's next question
    QList<PrefixDocument> documents;
    bool isEmpty() const { return documents.isEmpty(); }
    QStringList fingerprints() const;
    QStringList titles() const;
};

// The prefix of a chat with `systemPrompt` over `documents` (ready PDFs with text go in the
// system turn, in order; images go with the question, as conversation_prompt does).
DocumentPrefix documentPrefix(const QString& systemPrompt, const QList<Document>& documents);

} // namespace folio::ui

Q_DECLARE_METATYPE(folio::ui::DocumentPrefix)
