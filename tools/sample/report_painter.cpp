#include "report_painter.h"

#include <utility>

namespace folio::sample {

QFont font(int pixelSize, bool bold, const QString& family) {
    QFont f(family);
    f.setPixelSize(pixelSize);
    f.setBold(bold);
    return f;
}

QFont cjkFont(int pixelSize, bool bold) {
    QFont f = font(pixelSize, bold, QStringLiteral("WenQuanYi Micro Hei"));
    f.setFamilies({QStringLiteral("WenQuanYi Micro Hei"), QStringLiteral("Noto Sans CJK SC"),
                   QStringLiteral("DejaVu Sans")});
    return f;
}

Report::Report(QPdfWriter& writer, QString footerText)
    : writer_(writer), painter_(&writer), footerText_(std::move(footerText)) {
    painter_.setRenderHint(QPainter::Antialiasing);
    painter_.setWindow(0, 0, kPageW, kPageH);
    painter_.setViewport(0, 0, writer.width(), writer.height());
}

void Report::newPage(bool withFooter) {
    if (withFooter)
        footer();
    writer_.newPage();
    ++page_;
    y_ = kMargin;
}

void Report::finish() {
    footer();
    painter_.end();
}

void Report::heading(const QString& text, bool cjk) {
    painter_.setPen(QColor(0x1f, 0x4e, 0x8c));
    painter_.setFont(cjk ? cjkFont(20, true) : font(20, true));
    painter_.drawText(QRectF(kMargin, y_, kPageW - 2 * kMargin, 30), Qt::AlignLeft, text);
    y_ += 38;
    painter_.setPen(QPen(QColor(0x1f, 0x4e, 0x8c), 1.5));
    painter_.drawLine(QPointF(kMargin, y_ - 6), QPointF(kPageW - kMargin, y_ - 6));
    y_ += 6;
}

void Report::paragraph(const QString& text, bool cjk) {
    painter_.setPen(QColor(0x22, 0x22, 0x22));
    painter_.setFont(cjk ? cjkFont(11) : font(11));
    QRectF box(kMargin, y_, kPageW - 2 * kMargin, kPageH - y_ - kMargin);
    QRectF used;
    painter_.drawText(box, Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, text, &used);
    y_ += used.height() + 10;
}

void Report::table(const QStringList& header, const QList<QStringList>& rows, bool cjk) {
    const double w = kPageW - 2 * kMargin;
    const double firstCol = w * 0.40;
    const double otherCol = (w - firstCol) / (header.size() - 1);
    const double rowH = 22;
    auto cellRect = [&](int col, double y) {
        double x = kMargin + (col == 0 ? 0 : firstCol + (col - 1) * otherCol);
        return QRectF(x + 6, y, (col == 0 ? firstCol : otherCol) - 12, rowH);
    };
    painter_.fillRect(QRectF(kMargin, y_, w, rowH), QColor(0x1f, 0x4e, 0x8c));
    painter_.setPen(Qt::white);
    painter_.setFont(cjk ? cjkFont(10, true) : font(10, true));
    for (int c = 0; c < header.size(); ++c)
        painter_.drawText(cellRect(c, y_), Qt::AlignVCenter | (c ? Qt::AlignRight : Qt::AlignLeft),
                          header[c]);
    y_ += rowH;
    painter_.setFont(cjk ? cjkFont(10) : font(10));
    for (int r = 0; r < rows.size(); ++r) {
        if (r % 2)
            painter_.fillRect(QRectF(kMargin, y_, w, rowH), QColor(0xee, 0xf2, 0xf8));
        painter_.setPen(QColor(0x22, 0x22, 0x22));
        for (int c = 0; c < rows[r].size(); ++c)
            painter_.drawText(cellRect(c, y_),
                              Qt::AlignVCenter | (c ? Qt::AlignRight : Qt::AlignLeft), rows[r][c]);
        y_ += rowH;
    }
    painter_.setPen(QPen(QColor(0x1f, 0x4e, 0x8c), 1));
    painter_.drawLine(QPointF(kMargin, y_), QPointF(kMargin + w, y_));
    y_ += 16;
}

void Report::image(const QImage& img, double width) {
    double height = width * img.height() / img.width();
    painter_.drawImage(QRectF(kMargin, y_, width, height), img);
    y_ += height + 12;
}

void Report::caption(const QString& text) {
    painter_.setPen(QColor(0x55, 0x55, 0x55));
    painter_.setFont(font(9));
    painter_.drawText(QRectF(kMargin, y_, kPageW - 2 * kMargin, 16), Qt::AlignLeft, text);
    y_ += 22;
}

void Report::footer() {
    painter_.setPen(QColor(0x77, 0x77, 0x77));
    painter_.setFont(font(8));
    painter_.drawText(QRectF(kMargin, kPageH - 36, kPageW - 2 * kMargin, 14), Qt::AlignLeft,
                      footerText_);
    painter_.drawText(QRectF(kMargin, kPageH - 36, kPageW - 2 * kMargin, 14), Qt::AlignRight,
                      QStringLiteral("Page %1").arg(page_));
}

} // namespace folio::sample
