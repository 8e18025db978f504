#pragma once
// Loads documents off the GUI thread: PDF page count and text per page through QtPdf, image
// size and validity through QImageReader (with a pixel limit before decoding).

#include "core/documents/document.h"

#include <QFuture>
#include <QString>

#include <functional>

namespace folio::ui {

// Images above this many pixels are refused before decoding (a 64 MP limit).
inline constexpr qint64 kMaxImagePixels = 64ll * 1000 * 1000;
// PDFs above this many pages are refused before any page is read: their text alone would
// exceed the largest context (a 1M-token model holds about 2500 dense pages) and reading it
// would take minutes.
inline constexpr int kMaxPdfPages = 10000;

// Runs in a worker thread; never throws; a bad file gives a Document with State::Failed and
// a message naming the file and the problem.
// `progress(done, total)` is called after each page's text (PDFs); `cancelled()` is asked
// before each page: true stops the read (a Failed document saying so).
Document loadDocument(const QString& path,
                      const std::function<void(int done, int total)>& progress = nullptr,
                      const std::function<bool()>& cancelled = nullptr);

// In the thread pool; the future reports progress in pages (progressValue / progressMaximum)
// and can be cancelled (it then has no result).
QFuture<Document> loadDocumentAsync(const QString& path);

bool isSupportedDocument(const QString& path);

// SHA-256 of the file's bytes (hex); "" when it cannot be read. A document's identity for
// chats and document caches: a changed file gets another fingerprint.
QString fileFingerprint(const QString& path);

} // namespace folio::ui
