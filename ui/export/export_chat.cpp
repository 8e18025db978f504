#include "export/export_chat.h"

#include "export/pdf_export.h"
#include "storage/atomic_write.h"

#include <QFileInfo>
#include <QJsonDocument>
#include <QObject>

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

QString exportChat(const QString& path, const ChatSession& chat, const ExportContext& context) {
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

} // namespace folio::ui
