#pragma once
// What OCR gives for one page: its text, Tesseract's mean confidence and the boxes of its words
// (kept so that a figure checked against the page can be highlighted in the preview later).

#include <QList>
#include <QMetaType>
#include <QRectF>
#include <QString>

namespace folio::ocr {

// One recognised word. `box` is in PDF points of the page (origin top left, as QtPdf uses), so
// it does not depend on the resolution the page was rendered at.
struct OcrWord {
    QString text;
    QRectF box;
    float confidence = 0; // 0..100, Tesseract's word confidence
    bool operator==(const OcrWord&) const = default;
};

struct PageOcr {
    QString text;             // UTF-8 text in reading order, lines and paragraphs kept
    float meanConfidence = 0; // 0..100, Tesseract's MeanTextConf
    QString languages;        // the Tesseract languages that read it ("eng", "chi_sim", ...)
    int dpi = 0;              // the resolution the page was read at
    QList<OcrWord> words;
    bool operator==(const PageOcr&) const = default;
};

// Which languages to read with. Auto: the script is detected per page (script_detect.h); an
// explicit list ("eng", "chi_sim", "eng+chi_sim") overrides it.
struct LanguageChoice {
    QString languages; // "" or "auto": detect
    bool isAuto() const { return languages.isEmpty() || languages == QLatin1String("auto"); }
};

enum class OcrErrorKind {
    None,
    MissingLanguage, // no traineddata for a language: names the Debian package
    BadImage,        // an image Tesseract cannot read (empty, too small, too large)
    BadDocument,     // the PDF cannot be opened or the page does not exist
    Cancelled,
    EngineFailed,
};

struct OcrError {
    OcrErrorKind kind = OcrErrorKind::None;
    QString message; // for the user: names the page, language or package
    explicit operator bool() const { return kind != OcrErrorKind::None; }
};

} // namespace folio::ocr

Q_DECLARE_METATYPE(folio::ocr::PageOcr)
