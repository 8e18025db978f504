#pragma once
// Atomic file writes (QSaveFile: temp file, flush, rename): a failed write never destroys an
// earlier file and leaves no temp file behind.

#include <QByteArray>
#include <QString>

namespace folio::ui {

// Returns an empty string on success, else a message for the user naming the file.
QString writeFileAtomic(const QString& path, const QByteArray& bytes);
QString writeTextFileAtomic(const QString& path, const QString& text);

} // namespace folio::ui
