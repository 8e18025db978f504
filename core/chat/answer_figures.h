#pragma once
// An answer's figures checked against the documents it cites (issue #46 §2): the figure
// checker (core/figures) on Qt strings. Pure and thread-safe: the chat runs it on the thread
// pool. The sample report's 7 pages and 17 figures take well under a millisecond; a 300-page
// document's page texts are converted once per answer (docs/FIGURE_CHECK.md).

#include "core/chat/chat_message.h"
#include "core/chat/message_figures.h"
#include "core/documents/document.h"
#include "core/pipeline/markdown_table.h"

#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>

namespace folio::ui {

// One document in the answer's "doc N" order.
struct FigureSource {
    QString title;
    QString fileName;  // "report.pdf"
    QStringList pages; // page 1 first; empty when the document's text is not at hand
};

// The documents `answer` cites, in its "doc N" order (its citedDocuments, found among
// `documents` by fingerprint; an answer that recorded none: the PDFs of `documents` in order),
// with their page texts. Empty when the answer has no PDF to cite.
QList<FigureSource> figureSources(const ChatMessage& answer, const QList<Document>& documents);

// The result tables of the answer's tool calls (the SQL tool), in call order; a call that
// returned no table gives an empty one (its place keeps CheckedFigure::table's numbering).
QList<MarkdownTable> queryResults(const ChatMessage& answer);

// Every figure of `answer`, with its place in `answer` (QString indices). A figure without a page
// citation in an answer with query results (`tables`) is looked for in them instead (issue #46
// §2: "a figure cited to a SQL tool result is checked against that result table"): verified
// with the row as its line, or not found.
QList<CheckedFigure> checkAnswerFigures(const QString& answer, const QList<FigureSource>& sources,
                                        const QList<MarkdownTable>& tables = {});

// The one-click fix of a figure found on another page (core/figures/citation_fix.h): `answer`
// with the citation the figure was checked against naming the page it is on ("[p. 3]" ->
// "[p. 5]"); "" when the figure is not on another page, no longer stands in `answer`, or its
// citation cannot be changed.
QString answerWithCitationFixed(const QString& answer, const CheckedFigure& figure,
                                const QList<FigureSource>& sources);

// checkAnswerFigures on the thread pool (a long document's pages are searched for figures cited
// elsewhere); `done` gets the figures on `context`'s thread, unless `context` is gone. Only the
// figures within [from, from + length) of `answer` are kept (length -1: to its end): text Folio
// writes around a model's (a heading, a list of parts) makes no claims.
void checkAnswerFiguresLater(QObject* context, const QString& answer,
                             const QList<FigureSource>& sources,
                             std::function<void(const QList<CheckedFigure>&)> done,
                             qsizetype from = 0, qsizetype length = -1,
                             const QList<MarkdownTable>& tables = {});

} // namespace folio::ui
