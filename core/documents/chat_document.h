#pragma once
// A document as a chat keeps it (saved with the chat, reopened with it).

#include <QString>

namespace folio::ui {

// A document that belongs to a chat: reopened with the chat, in this order (the order of the
// prompt). `fingerprint` is the SHA-256 of the file when it was added (fileFingerprint), so a
// file that changed or moved is noticed; `pinnedPages` is the user's text ("1-4, 37") naming
// pages that always go into the prompt.
struct ChatDocument {
    QString path;
    QString fingerprint;
    QString title;
    int pageCount = 0;
    bool isImage = false;
    QString pinnedPages;
    // Scanned pages go to the vision model as images (issue #23); off: they stay out (named).
    bool readScannedPages = true;
    // The OCR languages the user chose for the document's scanned pages (issue #46 §1): "auto"
    // (its script decides), "eng", "chi_sim" or "eng+chi_sim" (ocr_languages.h).
    QString ocrLanguages = QStringLiteral("auto");

    bool operator==(const ChatDocument& other) const = default;
};

} // namespace folio::ui
