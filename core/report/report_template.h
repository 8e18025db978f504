#pragma once
// A report template (issue #49): a title and sections, each with an instruction, what it may
// draw on, its form and a length. Templates are plain Markdown files a user can copy and edit
// (docs/REPORTS.md gives the format and why): "# Title", header lines "key: value", then one
// "## Heading" per section with its own "key: value" lines and the instruction as the
// paragraph after them. A malformed file is refused with its line number and what is wrong.

#include <QList>
#include <QString>
#include <QStringList>

namespace folio::ui {

// Sources: written by Folio, not asked for: the documents and pages the report's sections used.
enum class SectionForm { Prose, Bullets, Table, Quotes, Sources };

// What a section may draw on (any combination; documents by default).
struct SectionSources {
    bool documents = true;
    bool data = false;   // the chat's data sources, through the SQL tool
    bool images = false; // attached images (charts), through the vision model
};

struct ReportSectionTemplate {
    QString heading;
    QString instruction;
    SectionForm form = SectionForm::Prose;
    SectionSources sources;
    QStringList columns; // Table: the columns' names, in order
    QStringList rows;    // Table: the rows' names when the template fixes them
    int length = 0;      // words (characters for Chinese); 0: the default for its form
    int line = 0;        // the line of its "## Heading" in the file (1-based)
};

struct ReportTemplate {
    QString id;       // "equity-note"
    QString title;    // "Equity research note"
    QString language; // "en" | "zh_CN": the language the sections are written in
    QString description;
    int documents = 1; // how many documents it reads (2 for a comparison)
    QList<ReportSectionTemplate> sections;
    QString source; // the file it came from (":/report-templates/..." for built-in ones)
};

struct TemplateParse {
    ReportTemplate value;
    QString error; // "equity-note.md, line 14: unknown form “tabel” (prose, bullets, …)"
    bool ok() const { return error.isEmpty(); }
};

// `name` names the file in messages (its file name, not its path).
TemplateParse parseReportTemplate(const QString& text, const QString& name);
TemplateParse readReportTemplate(const QString& path);

// "prose", "bullets", "table", "quotes", "sources"
QString sectionFormName(SectionForm form);

} // namespace folio::ui
