#pragma once
// The prompt of a question about documents, shared by the workbench and `folio-cli summarize`:
// the chat's system prompt followed by the documents in the chat's order, each labelled
// "[document N: title]" with "[page K]" markers (K the real page number, also when only some
// pages go in), so answers can cite pages as "[p. K]" — or "[doc N, p. K]" with several
// documents. For the same documents and pages the text is the same byte for byte: it is the
// prefix the engine's cache reuses from question to question.

#include <QList>
#include <QString>
#include <QStringList>

namespace folio::ui {

struct SourceDocument {
    QString title;
    QStringList pageTexts;
    // true: only `pageNumbers` (1-based, ascending) go into the prompt, after the line of
    // partialDocumentNote(); false: every page.
    bool somePages = false;
    QList<int> pageNumbers = {};
    // The N of its label "[document N: title]": its place among the chat's PDFs, which
    // citations "[doc N, p. K]" count too (a missing PDF keeps its number). 0: its place here.
    int number = 0;
};

// "You are Folio, an analyst's assistant. ... cite pages as [p. N]."
QString defaultSystemPrompt();
QString buildSystemPrompt(const QString& systemPrompt, const QList<SourceDocument>& documents);
// "[document 1: T]\n[page 1]\n...\n[page 2]\n..." for every document, after the line of
// citationRule() (always there, also for one document: the text of the first documents stays
// a prefix when more are added, so their cache is reused).
QString documentContext(const QList<SourceDocument>& documents);
// The label line of a document: "[document N: title]\n" (N 1-based).
QString documentLabel(int number, const QString& title);
// One page as the prompt holds it: "[page K]\n<trimmed text>\n".
QString pageBlock(int page, const QString& text);
// "[only the pages marked below are included; the others were left out to fit the context]\n"
QString partialDocumentNote();
// "Documents follow, each under [document N: title] with its pages as [page K]; cite a page as
// [p. K], or as [doc N, p. K] when there are several documents."
QString citationRule();
// The question `folio-cli summarize` asks.
QString summaryQuestion();

} // namespace folio::ui
