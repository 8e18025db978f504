#pragma once
// The checked figures of a chat's answers in an export (issue #46 §2): each figure that still
// stands where the checker found it carries its mark ("4,500 ✓"), and an appendix lists every
// figure with its answer, state, cited and found page and the page's line, so a reader of the
// exported note sees what was checked without the workbench.

#include "core/chat/chat_message.h"

#include <QList>
#include <QString>

namespace folio::ui {

// The figures of one answer (or one report section) and the titles of its "doc N" documents.
struct FigureGroup {
    QString label; // the appendix's first column: "3" (the third answer), a section's heading
    QList<CheckedFigure> figures;
    QStringList documentTitles; // named in the page columns when there are several
};

// `text` (an answer's own text) with the mark of each standing figure right after it.
QString withExportFigureMarks(const QString& text, const QList<CheckedFigure>& figures);

// "## Figures checked" and a Markdown table of every checked figure of `messages`' answers
// (answers numbered in order, 1-based); "" when no answer has figures. `documentTitles`: the
// chat's documents, in "doc N" order for answers that did not keep their own (an answer's cited
// documents name its figures' documents); named in the page columns when there are several.
QString figuresAppendixMarkdown(const QList<ChatMessage>& messages,
                                const QStringList& documentTitles);
// The same as an HTML section with a table.
QString figuresAppendixHtml(const QList<ChatMessage>& messages, const QStringList& documentTitles);
// The appendix of any groups of figures; `groupColumn` heads the first column ("Section").
QString figuresAppendixMarkdown(const QList<FigureGroup>& groups, const QString& groupColumn);
QString figuresAppendixHtml(const QList<FigureGroup>& groups, const QString& groupColumn);

} // namespace folio::ui
