#pragma once
// Test and bench material: text drawn into a grey picture, one picture per page of a PDF, as a
// scanner writes it (no text layer). The source text is known, so OCR can be scored against it.
// Needs a QGuiApplication (fonts).

#include <QImage>
#include <QList>
#include <QString>

namespace folio::ocr {

struct ScanPage {
    QString text;       // paragraphs separated by blank lines; wrapped to the page's width
    QString fontFamily; // e.g. "DejaVu Serif", "WenQuanYi Micro Hei"
    double pointSize = 12;
};

struct ScanOptions {
    int dpi = 200;      // the picture's resolution: an office scanner's default
    bool tinted = true; // a paper tone instead of pure white, as scans have
};

// Writes an A4 PDF with one scanned page per entry; false with a message on failure (also when
// the font family is not installed: `fc-list` names what is).
bool writeScannedPdf(const QString& path, const QList<ScanPage>& pages, QString* error,
                     const ScanOptions& options = {});

// The page picture alone (Format_Grayscale8), as writeScannedPdf puts it on the page.
QImage drawScannedPage(const ScanPage& page, const ScanOptions& options = {});

// Sample texts written for these scans: English prose of an annual report, and Simplified
// Chinese prose of a government policy notice. Index wraps around.
QString englishScanText(int index);
QString chineseScanText(int index);

} // namespace folio::ocr
