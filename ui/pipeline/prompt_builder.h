#pragma once
// The prompt of a question about documents, shared by the workbench and `folio-cli summarize`:
// the chat's system prompt followed by whole documents with page markers, so answers can cite
// pages as "[p. N]".

#include <QList>
#include <QString>
#include <QStringList>

namespace folio::ui {

struct SourceDocument {
    QString title;
    QStringList pageTexts;
};

// "You are Folio, an analyst's assistant. ... cite pages as [p. N]."
QString defaultSystemPrompt();
QString buildSystemPrompt(const QString& systemPrompt, const QList<SourceDocument>& documents);
// "[document: T]\n[page 1]\n...\n[page 2]\n..." for every document.
QString documentContext(const QList<SourceDocument>& documents);
// The question `folio-cli summarize` asks.
QString summaryQuestion();

} // namespace folio::ui
