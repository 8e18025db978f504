#pragma once
// Page layout shared by the sample generators: A4 pages drawn with QPainter in points onto a
// QPdfWriter, a cursor that moves down the page (headings, wrapped paragraphs, tables, images),
// and a footer line of text on every page that asks for one.

#include <QFont>
#include <QImage>
#include <QList>
#include <QPainter>
#include <QPdfWriter>
#include <QString>
#include <QStringList>

namespace folio::sample {

constexpr int kPageW = 595; // A4 in points: all drawing happens in these logical units
constexpr int kPageH = 842;
constexpr int kMargin = 56;

QFont font(int pixelSize, bool bold = false, const QString& family = QStringLiteral("DejaVu Sans"));
QFont cjkFont(int pixelSize, bool bold = false);

class Report {
public:
    // `footerText` goes on the left of every footer, "Page N" on the right.
    Report(QPdfWriter& writer, QString footerText);
    QPainter& painter() { return painter_; }

    // Ends the page (with its footer unless `footer` is false: a scanned page has no text layer
    // at all) and starts the next one.
    void newPage(bool footer = true);
    // Ends the document; the last page gets no footer (see newPage).
    void finishWithoutFooter() { painter_.end(); }
    // Ends the document with the last page's footer.
    void finish();

    void heading(const QString& text, bool cjk = false);
    void paragraph(const QString& text, bool cjk = false);
    void table(const QStringList& header, const QList<QStringList>& rows, bool cjk = false);
    void image(const QImage& img, double width);
    void caption(const QString& text);
    double y() const { return y_; }
    int page() const { return page_; }

private:
    void footer();

    QPdfWriter& writer_;
    QPainter painter_;
    QString footerText_;
    int page_ = 1;
    double y_ = kMargin;
};

} // namespace folio::sample
