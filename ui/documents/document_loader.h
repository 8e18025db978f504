#pragma once
// Loads documents off the GUI thread: PDF page count and text per page through QtPdf, image
// size and validity through QImageReader (with a pixel limit before decoding).

#include "documents/document.h"

#include <QFuture>
#include <QString>

namespace folio::ui {

// Images above this many pixels are refused before decoding (a 64 MP limit).
inline constexpr qint64 kMaxImagePixels = 64ll * 1000 * 1000;

// Runs in a worker thread; never throws; a bad file gives a Document with State::Failed and
// a message naming the file and the problem.
Document loadDocument(const QString& path);

QFuture<Document> loadDocumentAsync(const QString& path);

bool isSupportedDocument(const QString& path);

} // namespace folio::ui
