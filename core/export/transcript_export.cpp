#include "core/export/transcript_export.h"

#include "core/chat/chat_json.h"
#include "core/chat/citations.h"
#include "core/export/figures_appendix.h"
#include "core/pipeline/markdown_literal.h"

#include <QDir>
#include <QJsonArray>
#include <QTextDocument>
#include <QUrl>

namespace folio::ui {

namespace {

// An answer's Markdown as exported: its tool calls (SQL as a code block, the result table), the
// text, and the mark of an answer cut off by an error.
QString answerMarkdown(const ChatMessage& m) {
    QString md = toolCallsMarkdown(m.toolCalls) + withExportFigureMarks(m.text, m.figures);
    if (!m.interrupted.isEmpty())
        md += QStringLiteral("\n\n") + QObject::tr("[answer interrupted: %1]").arg(m.interrupted);
    return md;
}

// Citations of answers as links into the chat's documents ("file:///a/report.pdf#page=3"), or
// into the one PDF of the export's context for a chat that keeps no documents. An answer names
// its documents as they were when it was asked for (a citation of a document that has left the
// chat stays plain text); older answers, as the chat's documents are now.
QString linkedAnswer(const ChatSession& chat, const ChatMessage& m, const QString& markdown,
                     const QString& fallbackUrl, const QString& baseDir) {
    if (chat.documents.isEmpty())
        return linkCitations(markdown, fallbackUrl);
    const CitationTargets targets =
        resolveCitedDocuments(m.citedDocuments, citationTargets(chat.documents));
    return linkCitations(markdown, targets.documents, [&](int document, int page) {
        const int row = targets.rows.value(document, -1);
        if (row < 0)
            return QString(); // a document that has left the chat: no link
        return documentLink(chat.documents.value(row).path, baseDir) +
               QStringLiteral("#page=%1").arg(page);
    });
}

QString pagesText(const ChatDocument& d) {
    if (d.isImage)
        return QObject::tr("image");
    return d.pageCount == 1 ? QObject::tr("1 page") : QObject::tr("%1 pages").arg(d.pageCount);
}

// "1. **Annual Report** — 236 pages — `/a/report.pdf` — pinned: 1-4": the chat's documents.
QString documentsMarkdown(const QList<ChatDocument>& documents) {
    QString md = QObject::tr("## Documents\n\n");
    for (qsizetype i = 0; i < documents.size(); ++i) {
        const ChatDocument& d = documents[i];
        md +=
            QStringLiteral("%1. **%2** — %3 — `%4`").arg(i + 1).arg(d.title, pagesText(d), d.path);
        if (!d.pinnedPages.isEmpty())
            md += QObject::tr(" — pinned pages: %1").arg(d.pinnedPages);
        md += QLatin1Char('\n');
    }
    return md + QLatin1Char('\n');
}

QString documentsHtml(const QList<ChatDocument>& documents, const QString& baseDir) {
    QString html = QStringLiteral("<h2>%1</h2>\n<ol>\n").arg(QObject::tr("Documents"));
    for (const ChatDocument& d : documents) {
        html += QStringLiteral("<li><b>%1</b> — %2 — <a href=\"%3\">%4</a>")
                    .arg(d.title.toHtmlEscaped(), pagesText(d),
                         documentLink(d.path, baseDir).toHtmlEscaped(), d.path.toHtmlEscaped());
        if (!d.pinnedPages.isEmpty())
            html += QObject::tr(" — pinned pages: %1").arg(d.pinnedPages.toHtmlEscaped());
        html += QStringLiteral("</li>\n");
    }
    return html + QStringLiteral("</ol>\n");
}

// The body of a message as HTML: answers are Markdown, the rest is plain text.
QString messageHtml(const ChatSession& chat, const ChatMessage& m, const QString& citationUrl,
                    const QString& baseDir) {
    if (m.role != ChatMessage::Role::Assistant)
        return QStringLiteral("<p>%1</p>")
            .arg(m.text.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>")));
    QTextDocument doc;
    // "<" and "&" as written (not taken as HTML), then the citations as links.
    doc.setMarkdown(linkedAnswer(chat, m, escapeRawHtml(answerMarkdown(m)), citationUrl, baseDir));
    QString html = doc.toHtml();
    const qsizetype begin = html.indexOf(QStringLiteral("<body"));
    const qsizetype open = html.indexOf(QLatin1Char('>'), begin);
    const qsizetype end = html.lastIndexOf(QStringLiteral("</body>"));
    if (begin < 0 || open < 0 || end < open)
        return html;
    return html.mid(open + 1, end - open - 1);
}

// The chat's documents' titles in "doc N" order (or the export's context's).
QStringList documentTitles(const ChatSession& chat, const ExportContext& context) {
    if (chat.documents.isEmpty())
        return context.documents;
    QStringList titles;
    for (const ChatDocument& d : chat.documents)
        titles << d.title;
    return titles;
}

} // namespace

QString documentLink(const QString& path, const QString& baseDir) {
    if (baseDir.isEmpty())
        return QUrl::fromLocalFile(path).toString();
    return QString::fromUtf8(
        QUrl::toPercentEncoding(QDir(baseDir).relativeFilePath(path), QByteArrayLiteral("/")));
}

QString exportTime(const QDateTime& time) {
    return time.toString(QStringLiteral("yyyy-MM-dd HH:mm"));
}

QString transcriptToMarkdown(const QString& title, const QList<ChatMessage>& messages) {
    QString md = QStringLiteral("# %1\n\n").arg(title);
    for (const ChatMessage& m : messages) {
        md += QStringLiteral("## %1 (%2)\n\n%3\n\n")
                  .arg(roleName(m.role), exportTime(m.time),
                       m.role == ChatMessage::Role::Assistant ? answerMarkdown(m) : m.text);
        const QString stats = statsLine(m.stats);
        if (!stats.isEmpty())
            md += QStringLiteral("*%1*\n\n").arg(stats);
        if (!m.contextNote.isEmpty())
            md += QStringLiteral("*%1*\n\n").arg(contextNoteLine(m));
    }
    return md;
}

QString transcriptToMarkdown(const ChatSession& chat, const ExportContext& context) {
    QString md = transcriptToMarkdown(context.title, chat.messages) +
                 figuresAppendixMarkdown(chat.messages, documentTitles(chat, context));
    const qsizetype afterTitle = md.indexOf(QStringLiteral("\n\n")) + 2;
    if (!chat.documents.isEmpty())
        return md.insert(afterTitle, documentsMarkdown(chat.documents));
    if (context.documents.isEmpty())
        return md;
    return md.insert(
        afterTitle,
        QStringLiteral("*Documents: %1*\n\n").arg(context.documents.join(QStringLiteral(", "))));
}

QString transcriptToHtml(const ChatSession& chat, const ExportContext& context) {
    const QString citationUrl =
        context.documentPath.isEmpty()
            ? QStringLiteral("#page-%1")
            : documentLink(context.documentPath, context.baseDir) + QStringLiteral("#page=%1");
    QString html = QStringLiteral("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
                                  "<title>%1</title></head><body>\n<h1>%1</h1>\n")
                       .arg(context.title.toHtmlEscaped());
    if (!chat.documents.isEmpty())
        html += documentsHtml(chat.documents, context.baseDir);
    else if (!context.documents.isEmpty())
        html += QStringLiteral("<p><i>Documents: %1</i></p>\n")
                    .arg(context.documents.join(QStringLiteral(", ")).toHtmlEscaped());
    for (const ChatMessage& m : chat.messages) {
        html += QStringLiteral("<h2>%1 <small>%2</small></h2>\n")
                    .arg(roleName(m.role), exportTime(m.time));
        html += messageHtml(chat, m, citationUrl, context.baseDir) + QLatin1Char('\n');
        const QString stats = statsLine(m.stats);
        if (!stats.isEmpty())
            html += QStringLiteral("<p><small>%1</small></p>\n").arg(stats.toHtmlEscaped());
        if (!m.contextNote.isEmpty())
            html += QStringLiteral("<p><small>%1</small></p>\n")
                        .arg(contextNoteLine(m).toHtmlEscaped());
    }
    html += figuresAppendixHtml(chat.messages, documentTitles(chat, context));
    html += QStringLiteral("</body></html>\n");
    return html;
}

QJsonObject transcriptToJson(const ChatSession& chat, const ExportContext& context) {
    QJsonObject o = chatToJson(chat);
    o.remove(QStringLiteral("versions")); // an export is the chosen branch
    o.insert(QStringLiteral("export_title"), context.title);
    // The chat's documents (path, fingerprint, pages…) are in chatToJson; a chat without any
    // names the documents of the export's context.
    if (chat.documents.isEmpty())
        o.insert(QStringLiteral("documents"), QJsonArray::fromStringList(context.documents));
    o.insert(QStringLiteral("model"), context.model);
    return o;
}

} // namespace folio::ui
