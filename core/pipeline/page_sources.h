#pragma once
// Which pages of a document go into a prompt as text and which as images (issue #46 §1). A page
// with a text layer goes as text; a scanned page read with OCR goes as its OCR text, unless it
// is a picture more than text (a chart, a photo: OCR found few words, or read them poorly) or
// the question is about what the pages look like ("what does the signature look like", "描述图
// 表"), when the vision model gets its image as before; a page without any text goes as its
// image. The question's note then says which pages went in as OCR text and which as images.

#include "core/documents/document.h"
#include "core/pipeline/page_selection.h"

#include <QList>
#include <QString>

namespace folio::ui {

// An OCR page with fewer words than this, or a lower mean confidence, is a picture.
inline constexpr int kMinOcrWordsForText = 12;
inline constexpr float kMinOcrConfidenceForText = 50.0f;

// True when the question asks about how a page looks (its charts, pictures, layout, colours,
// signature, stamp) rather than what it says, in English or Chinese.
bool questionAboutLooks(const QString& question);

// True for an OCR page that is a picture more than text (see above).
bool ocrPageIsPicture(const Document& document, int page);

// The pages (0-based) of a PDF that go in as images when the model can see them: pages without
// text (no layer, no OCR text), OCR pages that are pictures, and every OCR page when the
// question is about looks. `question` empty: none of the last.
QList<int> pagesAsImages(const Document& document, const QString& question = {});

// The pages (0-based) whose OCR text goes into the prompt (OCR pages not in `asImages`).
QList<int> pagesAsOcrText(const Document& document, const QList<int>& asImages);

// The part of a question's note naming, for one document, the pages (1-based) that went in as
// OCR text and as images: "scanned page 8 as OCR text (mean confidence 91%)", "scanned pages 3, 9
// as images"; `title` prefixes it when not empty. "" when there are none.
QString pageSourcesNote(const QString& title, const Document& document, const QList<int>& ocrPages,
                        const QList<int>& imagePages);

// One document of a prompt: the pages (1-based) that would go as OCR text and as images.
struct DocumentPageSources {
    Document document;
    QList<int> ocrPages;
    QList<int> imagePages;
};

// The note's part for every document (in the order of `included`, the plan's pages per
// document), naming only pages that went in; titles when there are several documents.
QString pageSourcesNote(const QList<DocumentPageSources>& documents,
                        const QList<DocumentPages>& included);

} // namespace folio::ui
