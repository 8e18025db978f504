#pragma once
// OCR text put into a Document (issue #46 §1): what a page's OCR outcome changes in it, and
// the OCR job that reads a document's pages without a usable text layer (folio_ocr's runner,
// its cache by fingerprint and page, the document's script or the user's languages).

#include "core/documents/document.h"
#include "core/ocr/ocr_runner.h"

#include <QString>

#include <functional>

namespace folio::ui {

// The page's OCR text replaces its missing or junk text layer (origin Ocr, with Tesseract's
// mean confidence and languages; its word boxes kept); a page OCR could not read keeps what it
// had and is marked OcrFailed with the message. A cancelled outcome changes nothing.
void applyOcrOutcome(Document& document, const ocr::PageOutcome& outcome);

// The pages of `document` OCR still has to read (waiting, or failed before), in page order.
QList<int> pagesToRead(const Document& document);

// The job for those pages: `languages` "auto" (or empty) uses the document's script hint;
// `cacheDir` empty is the user's cache folder.
ocr::OcrJob ocrJobFor(const Document& document, const QString& languages, const QString& cacheDir);

// Reads the pages OCR still has to read now, in this thread (its own event loop: for the CLI's
// jobs, not the window), applying each outcome; `progress` gets (pages done, total, ETA s or
// -1). "" when done (pages that could not be read are marked in the document), else why OCR
// could not start (missing language data: the package to install).
QString readScannedPagesNow(Document& document, const QString& languages,
                            const std::function<void(int, int, double)>& progress = {});
// "eng" -> "English", "chi_sim" -> "Chinese (Simplified)", "eng+chi_sim" -> both; others as
// they are. Translated.
QString ocrLanguageName(const QString& languages);

// One line for the user about the document's OCR pages: "page 8 read with OCR (English +
// Chinese (Simplified), mean confidence 91%)", "3 pages read with OCR (…)", "" for none.
QString ocrSummary(const Document& document);

} // namespace folio::ui
