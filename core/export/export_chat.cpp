#include "core/export/export_chat.h"

#include "core/export/pdf_export.h"
#include "core/pipeline/markdown_literal.h"
#include "core/storage/atomic_write.h"

#include <QDir>

#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QObject>
#include <QTextDocument>

namespace folio::ui {

ExportFormat exportFormatForPath(const QString& path) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("html") || suffix == QLatin1String("htm"))
        return ExportFormat::Html;
    if (suffix == QLatin1String("pdf"))
        return ExportFormat::Pdf;
    if (suffix == QLatin1String("json"))
        return ExportFormat::Json;
    return ExportFormat::Markdown;
}

QString exportFileFilters() {
    return QObject::tr("Markdown (*.md);;HTML (*.html *.htm);;PDF (*.pdf);;JSON (*.json)");
}

QString exportChat(const QString& path, const ChatSession& chat, const ExportContext& given) {
    ExportContext context = given;
    if (context.baseDir.isEmpty())
        context.baseDir = QFileInfo(path).absolutePath();
    switch (exportFormatForPath(path)) {
    case ExportFormat::Markdown:
        return writeTextFileAtomic(path, transcriptToMarkdown(chat, context));
    case ExportFormat::Html:
        return writeTextFileAtomic(path, transcriptToHtml(chat, context));
    case ExportFormat::Pdf:
        return writeHtmlAsPdf(path, context.title, transcriptToHtml(chat, context)).error;
    case ExportFormat::Json:
        return writeFileAtomic(path, QJsonDocument(transcriptToJson(chat, context)).toJson());
    }
    return {};
}

QString exportSummary(const QString& path, const SummaryExport& summary) {
    const QString baseDir = QFileInfo(path).absolutePath();
    auto html = [&summary, &baseDir] {
        QTextDocument doc;
        doc.setMarkdown(escapeRawHtml(summary.markdown));
        QString body = doc.toHtml();
        const qsizetype begin = body.indexOf(QStringLiteral("<body"));
        const qsizetype open = body.indexOf(QLatin1Char('>'), begin);
        const qsizetype end = body.lastIndexOf(QStringLiteral("</body>"));
        if (begin >= 0 && open >= 0 && end > open)
            body = body.mid(open + 1, end - open - 1);
        QString out = QStringLiteral("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
                                     "<title>%1</title></head><body>\n")
                          .arg(summary.title.toHtmlEscaped());
        if (!summary.documentPath.isEmpty())
            out += QStringLiteral("<p><i>%1 <a href=\"%2\">%3</a> · %4</i></p>\n")
                       .arg(QObject::tr("Summary of"),
                            documentLink(summary.documentPath, baseDir).toHtmlEscaped(),
                            QFileInfo(summary.documentPath).fileName().toHtmlEscaped(),
                            exportTime(summary.created));
        return out + body + QStringLiteral("</body></html>\n");
    };
    switch (exportFormatForPath(path)) {
    case ExportFormat::Markdown:
        return writeTextFileAtomic(path, summary.markdown);
    case ExportFormat::Html:
        return writeTextFileAtomic(path, html());
    case ExportFormat::Pdf:
        return writeHtmlAsPdf(path, summary.title, html()).error;
    case ExportFormat::Json: {
        const QJsonObject o{{QStringLiteral("format"), QStringLiteral("folio-summary")},
                            {QStringLiteral("title"), summary.title},
                            {QStringLiteral("document"),
                             summary.documentPath.isEmpty()
                                 ? QString()
                                 : QDir(baseDir).relativeFilePath(summary.documentPath)},
                            {QStringLiteral("markdown"), summary.markdown},
                            {QStringLiteral("created"), summary.created.toString(Qt::ISODate)}};
        return writeFileAtomic(path, QJsonDocument(o).toJson());
    }
    }
    return {};
}

} // namespace folio::ui
