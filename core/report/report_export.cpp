#include "core/report/report_export.h"

#include "core/chat/citations.h"
#include "core/export/figures_appendix.h"
#include "core/export/pdf_export.h"
#include "core/pipeline/markdown_literal.h"
#include "core/storage/atomic_write.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QFileInfo>
#include <QFont>
#include <QHash>
#include <QTextDocument>
#include <QTextDocumentWriter>
#include <QUrl>

namespace folio::ui {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("folio::ui", text);
}

QList<CitationDocument> citationDocuments(const Report& r) {
    QList<CitationDocument> docs;
    for (const ReportDocument& d : r.documents)
        docs << CitationDocument{d.title, QFileInfo(d.path).fileName(), d.pageCount, d.fingerprint};
    return docs;
}

QStringList documentTitles(const Report& r) {
    QStringList titles;
    for (const ReportDocument& d : r.documents)
        titles << d.title;
    return titles;
}

// The report's notes: one per distinct citation target, numbered in order of first use.
class Notes {
public:
    int noteFor(const QString& text) {
        const auto at = index_.constFind(text);
        if (at != index_.constEnd())
            return *at;
        texts_ << text;
        index_.insert(text, int(texts_.size()));
        return int(texts_.size());
    }
    const QStringList& texts() const { return texts_; }

private:
    QStringList texts_;
    QHash<QString, int> index_;
};

// "Annual report 2024 (report.pdf), p. 14"; "…, pp. 3–5, 9".
QString noteText(const Citation& c, const QList<CitationDocument>& docs, const QString& written) {
    if (c.document < 0 || c.document >= docs.size())
        return tr("as cited: %1").arg(written);
    QStringList items;
    int pages = 0;
    for (const auto& item : c.items) {
        items << (item.first == item.second
                      ? QString::number(item.first)
                      : QStringLiteral("%1–%2").arg(item.first).arg(item.second));
        pages += item.second - item.first + 1;
    }
    const CitationDocument& d = docs[c.document];
    const QString where = pages == 1 ? tr("p. %1").arg(items.join(QStringLiteral(", ")))
                                     : tr("pp. %1").arg(items.join(QStringLiteral(", ")));
    return d.fileName.isEmpty() ? QStringLiteral("%1, %2").arg(d.title, where)
                                : QStringLiteral("%1 (%2), %3").arg(d.title, d.fileName, where);
}

QString superscript(int n) {
    static const QString digits = QStringLiteral("⁰¹²³⁴⁵⁶⁷⁸⁹");
    QString out;
    for (QChar c : QString::number(n))
        out += digits[c.digitValue()];
    return out;
}

// A section's text with its figures' marks and each citation turned into a note reference
// (`reference(n)`).
QString sectionBody(const ReportSection& s, const QList<CitationDocument>& docs, Notes& notes,
                    const std::function<QString(int)>& reference) {
    const QString marked = withExportFigureMarks(s.text, s.figures);
    const QList<Citation> cites = findCitations(marked, docs);
    QString out;
    qsizetype at = 0;
    for (const Citation& c : cites) {
        out += marked.mid(at, c.start - at);
        const QString written = marked.mid(c.start, c.length);
        out += reference(notes.noteFor(noteText(c, docs, written)));
        at = c.start + c.length;
    }
    return out + marked.mid(at);
}

QString sectionPlaceholder(const ReportSection& s) {
    if (s.state == ReportSection::State::Failed)
        return tr("*Not written: %1*").arg(s.error);
    return tr("*Not written yet.*");
}

bool written(const ReportSection& s) {
    return s.state == ReportSection::State::Done || s.state == ReportSection::State::Edited;
}

// "From: Annual report 2024 (report.pdf, 236 pages) · charts: revenue.png · model: x ·
// 2026-12-07 18:40"
QString sourcesLine(const Report& r) {
    QStringList from;
    for (const ReportDocument& d : r.documents)
        from << tr("%1 (%2, %3 pages)").arg(d.title, QFileInfo(d.path).fileName()).arg(d.pageCount);
    QStringList parts{tr("From: %1").arg(from.join(QStringLiteral("; ")))};
    QStringList images, data;
    for (const QString& i : r.images)
        images << QFileInfo(i).fileName();
    for (const QString& d : r.dataSources)
        data << QFileInfo(d).fileName();
    if (!images.isEmpty())
        parts << tr("charts: %1").arg(images.join(QStringLiteral(", ")));
    if (!data.isEmpty())
        parts << tr("data: %1").arg(data.join(QStringLiteral(", ")));
    if (!r.model.isEmpty())
        parts << tr("model: %1").arg(r.model);
    parts << r.updated.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm"));
    return parts.join(QStringLiteral(" · "));
}

QString contentsEntry(const Report& r, int i) {
    QString entry = QStringLiteral("%1. %2").arg(i + 1).arg(r.shape.sections[i].heading);
    if (sectionHasFiguresNotFound(r.sections[i]))
        entry += QStringLiteral(" — ✗ ") + tr("figures not found");
    else if (!written(r.sections[i]))
        entry += QStringLiteral(" — ") + tr("not written");
    return entry;
}

QList<FigureGroup> figureGroups(const Report& r) {
    QList<FigureGroup> groups;
    for (int i = 0; i < r.sections.size(); ++i)
        if (written(r.sections[i]))
            groups << FigureGroup{r.shape.sections[i].heading, r.sections[i].figures,
                                  documentTitles(r)};
    return groups;
}

// The body of a Markdown fragment as HTML (QTextDocument's Markdown reader: tables stay tables).
QString markdownToHtmlBody(const QString& markdown) {
    QTextDocument doc;
    doc.setMarkdown(escapeRawHtml(markdown));
    QString body = doc.toHtml();
    const qsizetype begin = body.indexOf(QStringLiteral("<body"));
    const qsizetype open = body.indexOf(QLatin1Char('>'), begin);
    const qsizetype end = body.lastIndexOf(QStringLiteral("</body>"));
    if (begin >= 0 && open >= 0 && end > open)
        body = body.mid(open + 1, end - open - 1);
    return body;
}

QString odtBytes(const QString& html, QByteArray* out) {
    QTextDocument doc;
    QFont font;
    font.setFamilies({QStringLiteral("DejaVu Sans"), QStringLiteral("WenQuanYi Micro Hei")});
    doc.setDefaultFont(font);
    doc.setHtml(html);
    QBuffer buffer(out);
    buffer.open(QIODevice::WriteOnly);
    QTextDocumentWriter writer(&buffer, QByteArrayLiteral("odf"));
    if (!writer.write(&doc))
        return tr("the ODT writer failed");
    return QString();
}

} // namespace

ReportFormat reportFormatForPath(const QString& path) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("html") || suffix == QLatin1String("htm"))
        return ReportFormat::Html;
    if (suffix == QLatin1String("pdf"))
        return ReportFormat::Pdf;
    if (suffix == QLatin1String("odt"))
        return ReportFormat::Odt;
    return ReportFormat::Markdown;
}

QString reportMarkdown(const Report& r) {
    const QList<CitationDocument> docs = citationDocuments(r);
    Notes notes;
    QString md =
        QStringLiteral("# %1\n\n*%2*\n\n## %3\n\n").arg(r.title, sourcesLine(r), tr("Contents"));
    for (int i = 0; i < r.sections.size(); ++i)
        md += contentsEntry(r, i) + QLatin1Char('\n');
    for (int i = 0; i < r.sections.size(); ++i) {
        const ReportSection& s = r.sections[i];
        md += QStringLiteral("\n## %1. %2\n\n").arg(i + 1).arg(r.shape.sections[i].heading);
        if (r.shape.sections[i].sources.images)
            for (const QString& image : r.images)
                md += QStringLiteral("![%1](%2)\n\n")
                          .arg(QFileInfo(image).fileName(),
                               QUrl::fromLocalFile(image).toString(QUrl::FullyEncoded));
        md += written(s) ? sectionBody(s, docs, notes,
                                       [](int n) { return QStringLiteral("[^%1]").arg(n); })
                         : sectionPlaceholder(s);
        md += QLatin1Char('\n');
    }
    const QString appendix = figuresAppendixMarkdown(figureGroups(r), tr("Section"));
    if (!appendix.isEmpty())
        md += QLatin1Char('\n') + appendix;
    if (!notes.texts().isEmpty()) {
        md += QLatin1Char('\n');
        for (int n = 0; n < notes.texts().size(); ++n)
            md += QStringLiteral("[^%1]: %2\n").arg(n + 1).arg(notes.texts()[n]);
    }
    return md;
}

QString reportHtml(const Report& r) {
    const QList<CitationDocument> docs = citationDocuments(r);
    Notes notes;
    QString html = QStringLiteral("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
                                  "<title>%1</title></head><body>\n<h1>%1</h1>\n<p><i>%2</i></p>\n")
                       .arg(r.title.toHtmlEscaped(), sourcesLine(r).toHtmlEscaped());
    html += QStringLiteral("<h2>%1</h2>\n<p>").arg(tr("Contents").toHtmlEscaped());
    for (int i = 0; i < r.sections.size(); ++i)
        html += contentsEntry(r, i).toHtmlEscaped() + QStringLiteral("<br>\n");
    html += QStringLiteral("</p>\n");
    for (int i = 0; i < r.sections.size(); ++i) {
        const ReportSection& s = r.sections[i];
        // The sections start on the page after the title and contents.
        html +=
            QStringLiteral("<h2%1>%2. %3</h2>\n")
                .arg(i == 0 ? QStringLiteral(" style=\"page-break-before: always\"") : QString())
                .arg(i + 1)
                .arg(r.shape.sections[i].heading.toHtmlEscaped());
        if (r.shape.sections[i].sources.images) // the charts it describes, above its text
            for (const QString& image : r.images)
                html += QStringLiteral("<p><img src=\"%1\" width=\"480\"></p>\n")
                            .arg(QUrl::fromLocalFile(image).toString().toHtmlEscaped());
        html += markdownToHtmlBody(written(s) ? sectionBody(s, docs, notes, superscript)
                                              : sectionPlaceholder(s));
    }
    if (!notes.texts().isEmpty()) {
        html += QStringLiteral("<h2>%1</h2>\n<p>").arg(tr("Notes").toHtmlEscaped());
        for (int n = 0; n < notes.texts().size(); ++n)
            html += QStringLiteral("%1 %2<br>\n")
                        .arg(superscript(n + 1), notes.texts()[n].toHtmlEscaped());
        html += QStringLiteral("</p>\n");
    }
    html += figuresAppendixHtml(figureGroups(r), tr("Section"));
    return html + QStringLiteral("</body></html>\n");
}

QString exportReport(const QString& path, const Report& report) {
    switch (reportFormatForPath(path)) {
    case ReportFormat::Markdown:
        return writeTextFileAtomic(path, reportMarkdown(report));
    case ReportFormat::Html:
        return writeTextFileAtomic(path, reportHtml(report));
    case ReportFormat::Pdf:
        return writeHtmlAsPdf(path, report.title, reportHtml(report)).error;
    case ReportFormat::Odt: {
        QByteArray bytes;
        const QString failed = odtBytes(reportHtml(report), &bytes);
        if (!failed.isEmpty())
            return tr("%1: %2").arg(QFileInfo(path).fileName(), failed);
        return writeFileAtomic(path, bytes);
    }
    }
    return QString();
}

} // namespace folio::ui
