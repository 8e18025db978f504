#include "core/export/pdf_export.h"

#include <QAbstractTextDocumentLayout>
#include <QFileInfo>
#include <QPageLayout>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>

namespace folio::ui {

PdfExportResult writeHtmlAsPdf(const QString& path, const QString& title, const QString& html) {
    PdfExportResult result;
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        result.error = QStringLiteral("%1: %2").arg(QFileInfo(path).fileName(), file.errorString());
        return result;
    }
    {
        QPdfWriter writer(&file);
        writer.setPageSize(QPageSize(QPageSize::A4));
        writer.setPageMargins(QMarginsF(18, 18, 18, 18), QPageLayout::Millimeter);
        writer.setResolution(300);
        writer.setTitle(title);
        writer.setCreator(QStringLiteral("Folio"));

        QTextDocument doc;
        doc.documentLayout()->setPaintDevice(&writer);
        QFont font;
        font.setFamilies({QStringLiteral("DejaVu Sans"), QStringLiteral("WenQuanYi Micro Hei")});
        font.setPointSizeF(10.5);
        doc.setDefaultFont(font);
        doc.setHtml(html);
        // Long lines (code, URLs, table cells) wrap instead of running off the page: code
        // blocks lose their "no wrap", and a word longer than the line breaks anywhere.
        QTextOption option = doc.defaultTextOption();
        option.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
        doc.setDefaultTextOption(option);
        for (QTextBlock block = doc.begin(); block.isValid(); block = block.next()) {
            QTextBlockFormat format = block.blockFormat();
            if (!format.nonBreakableLines())
                continue;
            format.setNonBreakableLines(false);
            QTextCursor(block).setBlockFormat(format);
        }
        const QRectF page = writer.pageLayout().paintRectPixels(writer.resolution());
        doc.setPageSize(page.size());
        result.pages = doc.pageCount();

        QPainter painter(&writer);
        for (int i = 0; i < result.pages; ++i) {
            if (i > 0)
                writer.newPage();
            painter.save();
            painter.translate(0, -i * page.height());
            doc.drawContents(&painter, QRectF(0, i * page.height(), page.width(), page.height()));
            painter.restore();
        }
        painter.end();
    }
    if (file.error() != QFileDevice::NoError || !file.commit()) {
        result.error = QStringLiteral("%1: %2").arg(QFileInfo(path).fileName(), file.errorString());
        result.pages = 0;
    }
    return result;
}

} // namespace folio::ui
