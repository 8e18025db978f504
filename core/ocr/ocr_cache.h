#pragma once
// OCR results on disk, so that a page is read once: one file per (document fingerprint, page,
// language setting) in the user's cache folder (QStandardPaths::CacheLocation + "/ocr") or a
// folder passed in. Files are written atomically (QSaveFile: a crash leaves the old file or
// none). Each starts with a line naming the format version and the SHA-256 of the rest; a file
// that is truncated, altered or of another version is a miss (and removed), so the page is
// read again.
//
// The fingerprint is the workbench's document identity: the SHA-256 of the file's bytes, hex
// (ui/documents/document_loader's fileFingerprint; documentFingerprint below is the same).

#include "core/ocr/ocr_types.h"

#include <QString>

#include <optional>

namespace folio::ocr {

inline constexpr int kOcrCacheVersion = 1;

// SHA-256 of the file's bytes, hex; "" when it cannot be read.
QString documentFingerprint(const QString& path);

// The default folder: <QStandardPaths::CacheLocation>/ocr.
QString defaultOcrCacheDir();

class OcrCache {
public:
    explicit OcrCache(QString dir = defaultOcrCacheDir());

    const QString& dir() const { return dir_; }

    // The file of (fingerprint, page, languages); page 0-based; languages as asked ("auto").
    QString entryPath(const QString& fingerprint, int page, const QString& languages) const;

    // The cached reading, or nothing when absent or damaged. `damaged` (may be null) is set
    // to a message when a file was there but could not be used (it is removed).
    std::optional<PageOcr> load(const QString& fingerprint, int page, const QString& languages,
                                QString* damaged = nullptr) const;

    // Writes atomically; an error message naming the file, or "" on success.
    QString store(const QString& fingerprint, int page, const QString& languages,
                  const PageOcr& ocr) const;

    // Serialised form of an entry (header line + JSON), and its reverse; exposed for tests.
    static QByteArray encode(const PageOcr& ocr);
    static std::optional<PageOcr> decode(const QByteArray& bytes, QString* why);

private:
    QString dir_;
};

} // namespace folio::ocr
