#pragma once
// A report (issue #49): a saved object beside the chat, made from a template's sections. Each
// section keeps its state, text, the pages it used and its checked figures, so finished
// sections survive a crash or a restart, one section can be made again or edited by hand, and
// an edited section stays edited. The template's text is kept with the report: a report
// resumes with the instructions it started with even if the template file changed since.

#include "core/chat/message_figures.h"
#include "core/report/report_template.h"

#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>

namespace folio::ui {

// A document the report reads, in its "doc N" order.
struct ReportDocument {
    QString path;
    QString title;
    QString fingerprint;
    int pageCount = 0;
};

// The pages of one document that went into a section's request.
struct ReportPagesUsed {
    int document = 0;  // 0-based, the report's documents
    QList<int> pages;  // 1-based, ascending
    int pageCount = 0; // of the document
};

struct ReportSection {
    // Pending: not made yet; Done: made by the model; Edited: the user's text (never made again
    // over it unless asked); Failed: its request failed (`error` says why; made again on resume).
    enum class State { Pending, Done, Edited, Failed };
    State state = State::Pending;
    QString text; // Markdown
    QString error;
    QList<ReportPagesUsed> pagesUsed;
    QList<CheckedFigure> figures; // of `text`, against the pages of the documents
    qint64 promptTokens = 0;
    double seconds = 0; // the request's time
    bool imagesUsed = false;
};

struct Report {
    QString title;
    QString templateText; // the template file's text (parsed again on load)
    QString templateName; // its file name or built-in id, for messages
    QList<ReportDocument> documents;
    QStringList images;      // charts attached to the report
    QStringList dataSources; // CSV / SQLite files
    QString model;           // the model that made it (its file name or the server's id)
    QDateTime created, updated;
    ReportTemplate shape;          // parsed from templateText
    QList<ReportSection> sections; // one per shape.sections, in order

    // Sections still to make: pending or failed.
    int sectionsLeft() const;
    bool finished() const { return sectionsLeft() == 0; }
};

// A new report of `shape` (made from `templateText`, named `templateName`): every section
// pending.
Report newReport(const ReportTemplate& shape, const QString& templateText,
                 const QString& templateName);

// "pending" | "done" | "edited" | "failed"
QString reportSectionStateKey(ReportSection::State state);

// The section's figures tallied, and whether any was not found (the outline flags it).
bool sectionHasFiguresNotFound(const ReportSection& section);

} // namespace folio::ui
