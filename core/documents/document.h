#pragma once
// One document the user opened: a PDF (pages with text) or an image (a chart screenshot).

#include <QImage>
#include <QMetaType>
#include <QSize>
#include <QString>
#include <QStringList>

namespace folio::ui {

inline constexpr int kThumbnailSize = 96;
inline constexpr int kPreviewSize = 480;

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

    // Rough prompt cost until the model's tokenizer is loaded: ~4 characters per token for
    // Latin text, one token per CJK character, and a fixed cost per image/scanned page.
    // `latinCharsPerToken`: measured on the loaded model once it has answered.
    int estimatedTokens(double latinCharsPerToken = 4.0) const;
    // Pages whose text layer is (nearly) empty: candidates for rendering as images.
    int pagesWithoutText() const;
};

} // namespace folio::ui

Q_DECLARE_METATYPE(folio::ui::Document)
