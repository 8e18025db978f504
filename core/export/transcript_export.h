#pragma once
// A chat as Markdown, HTML and JSON text. The chat's documents are listed under the title (title,
// pages, path, pinned pages; in JSON as the chat file keeps them). Citations keep their page
// references: "[p. 12]" stays in the text and, in HTML, links to the cited page of the cited
// document ("report.pdf#page=12"; "[doc 2, p. 3]" to the chat's second PDF).

#include "core/chat/chat_message.h"
#include "core/chat/chat_session.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

namespace folio::ui {

// What an export says about where the chat came from.
struct ExportContext {
    QString title;
    QString documentPath;  // the PDF citations refer to ("" : none)
    QStringList documents; // titles of the documents in context
    QString model;         // model name
    // The folder the export is written to: links to documents are relative to it, so the
    // export and the documents can move together; empty: absolute file URLs.
    QString baseDir;
};

// A link to `path` (a document) from an export in `baseDir` ("../reports/a.pdf", percent-
// encoded), or its file URL when `baseDir` is empty.
QString documentLink(const QString& path, const QString& baseDir);
// How an export shows a message's time: "2026-01-02 10:00".
QString exportTime(const QDateTime& time);

QString transcriptToMarkdown(const QString& title, const QList<ChatMessage>& messages);
// With the export's context: the documents the answers cite, under the title.
QString transcriptToMarkdown(const ChatSession& chat, const ExportContext& context);
QString transcriptToHtml(const ChatSession& chat, const ExportContext& context);
// The conversation (chatToJson: the chosen branch, without the other versions) with the
// export's context.
QJsonObject transcriptToJson(const ChatSession& chat, const ExportContext& context);

} // namespace folio::ui
