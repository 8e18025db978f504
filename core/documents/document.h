#pragma once
// One document the user opened: a PDF (pages with text) or an image (a chart screenshot).

#include "core/ocr/ocr_types.h"

#include <QHash>
#include <QImage>
#include <QList>
#include <QMetaType>
#include <QSize>
#include <QString>
#include <QStringList>

namespace folio::ui {

inline constexpr int kThumbnailSize = 96;
inline constexpr int kPreviewSize = 480;
// The dynamic property of the Documents pane's PDF view that holds the Document it shows
// (QVariant of Document), so Find searches its pages' OCR text too (ui/find).
inline constexpr char kPreviewDocumentProperty[] = "folioDocument";

// Where a page's text comes from (issue #46 §1): the PDF's text layer, or OCR for a page
// without a usable one (page_classify: none, or junk) — waiting for it, read (with Tesseract's
// mean confidence), or failed (the page keeps whatever layer it had and goes as an image).
struct PageOrigin {
    enum class Source { TextLayer, OcrPending, Ocr, OcrFailed };
    Source source = Source::TextLayer;
    float confidence = 0; // Ocr: 0..100, Tesseract's mean
    QString languages;    // Ocr: the models that read it ("eng", "eng+chi_sim")
    QString error;        // OcrFailed: why, for the user
    bool needsOcr() const { return source != Source::TextLayer; }
};

struct Document {
    enum class Kind { Pdf, Image };
    enum class State { Loading, Ready, Failed };

    QString path;
    QString title; // file name, or the PDF's title metadata
    Kind kind = Kind::Pdf;
    State state = State::Loading;
    QString error;         // when Failed: what went wrong, for the user
    int pageCount = 0;     // images count as one page
    QStringList pageTexts; // text layer per page (empty for images and scanned pages)
    QSize imageSize;       // images only
    qint64 fileBytes = 0;
    QString fingerprint; // SHA-256 of the file's bytes (hex), set by the loader
    QImage thumbnail;    // the first page or the image, at most kThumbnailSize
    QImage preview;      // images: at most kPreviewSize, for the Documents pane
    // Per page of a PDF (empty for images): where its text in pageTexts comes from. OCR text
    // replaces a missing or junk layer in pageTexts as pages are read (LoadedDocuments).
    QList<PageOrigin> pageOrigins;
    // OCR pages' words with their boxes in PDF points (0-based page -> words), kept for
    // highlighting a checked figure or a match on the page.
    QHash<int, QList<ocr::OcrWord>> pageWords;
    // The document's script from its text layer ("eng", "chi_sim", "eng+chi_sim"; "" when the
    // layer holds too little text to tell): the OCR model for its scanned pages.
    QString scriptHint;

    // Rough prompt cost until the model's tokenizer is loaded: ~4 characters per token for
    // Latin text, one token per CJK character, and a fixed cost per image/scanned page.
    // `latinCharsPerToken`: measured on the loaded model once it has answered.
    int estimatedTokens(double latinCharsPerToken = 4.0) const;
    // Pages whose text is (nearly) empty (no text layer and no OCR text yet): candidates for
    // rendering as images.
    int pagesWithoutText() const;
    // Pages (0-based) whose text layer is missing or junk: read with OCR.
    QList<int> pagesNeedingOcr() const;
    // Pages (0-based) whose text came from OCR / still wait for it / OCR failed on.
    QList<int> pagesWithSource(PageOrigin::Source source) const;
    PageOrigin origin(int page) const { return pageOrigins.value(page); }
    // The fingerprint, plus a hash of the OCR text when pages have some: what caches of the
    // document's text (token counts, prefix snapshots) are keyed by, so OCR text that arrives
    // later is never mixed up with the text before it.
    QString textKey() const;
};

} // namespace folio::ui

Q_DECLARE_METATYPE(folio::ui::Document)
