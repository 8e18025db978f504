#pragma once
// One report section as one request (issue #49 §2): its pages chosen by the long-report page
// selection with the section's heading and instruction as the query, the documents' text with
// "[page K]" markers in the system turn, and a user turn that asks for the section in its form
// (prose, a list, a table with the template's columns and rows, word-for-word quotations) and
// length, in the template's language. Attached charts go with the sections that draw on images
// when a vision model answers.

#include "core/pipeline/chat_turn.h"
#include "core/pipeline/page_selection.h"
#include "core/pipeline/token_counter.h"
#include "core/report/report_template.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace folio::ui {

// What the report's sections read.
struct ReportInputs {
    QList<PageSource> documents; // in the report's "doc N" order (number 1, 2, …)
    QStringList images;          // charts; used when `vision`
    bool vision = false;
    // Data sources (CSV files or a SQLite file) the sections that draw on data may query with
    // the SQL tool (the caller runs the tool: SectionRequest::wantsData).
    QStringList dataSources;
    qint64 contextTokens = 0; // prompt + answer of one request
    int answerTokens = 768;   // the longest answer of one section
};

struct SectionRequest {
    int index = 0; // the section's place in the template
    QString heading;
    QList<ChatTurn> turns;
    int maxTokens = 0;
    qint64 promptTokens = 0;
    PageSelection selection; // the pages that went in
    bool imagesIn = false;
    bool wantsData = false; // the section draws on data and there is some: run it with the tool
};

// The user turn's text for `section` of `shape` with `documents` documents.
QString sectionInstruction(const ReportTemplate& shape, const ReportSectionTemplate& section,
                           int documents, bool withImages, bool withData = false);

// The request of section `index`; "" in `error` on success, else why it cannot be asked (a
// context too small for the section's frame).
SectionRequest planSectionRequest(const ReportTemplate& shape, int index,
                                  const ReportInputs& inputs, const TokenCounter& counter,
                                  PageTokenCache& cache, QString* error);

} // namespace folio::ui
