#pragma once
// The documents the workbench has read, shared by every chat: each file is read once, in the
// thread pool, and kept (by path, while its size and modification time stay the same) so that
// a visit to a chat with a 2,000-page PDF finds its pages at once instead of reading them again
// on every switch. A read in flight is never restarted by a chat switch; it can be cancelled
// when no chat needs it any more. Failed and cancelled reads are not kept (a retry reads).
//
// A PDF's pages without a usable text layer are then read with OCR (issue #46 §1), in the
// background (folio_ocr's runner: its own 2 threads), with progress and an ETA; each page's
// text replaces its missing layer in the kept document as it arrives (documentUpdated).
// Readings are cached on disk by fingerprint and page, so a restart reads nothing again. The
// languages are the document's script, or the user's choice (ocr_languages.h).

#include "core/documents/document.h"

#include <QDateTime>
#include <QFutureWatcher>
#include <QHash>
#include <QObject>
#include <QString>

#include <optional>

namespace folio::ocr {
class OcrRunner;
struct PageOutcome;
} // namespace folio::ocr

namespace folio::ui {

class LoadedDocuments : public QObject {
    Q_OBJECT
public:
    // Documents kept beyond those in use are dropped, least recently asked for first, once
    // their text passes this many characters (about 1 GiB of UTF-16).
    static constexpr qint64 kDefaultBudgetChars = 512ll * 1024 * 1024;

    explicit LoadedDocuments(QObject* parent = nullptr);
    ~LoadedDocuments() override; // cancels reads in flight and waits for them

    // The document at `path` when it has been read and the file has not changed since.
    std::optional<Document> find(const QString& path);
    // Starts reading `path` unless it is being read; `finished` reports it. A read document
    // whose file changed is read again.
    void read(const QString& path);
    bool isReading(const QString& path) const { return reads_.contains(path); }
    // Stops reading `path` (its `finished` reports a cancelled read).
    void cancel(const QString& path);
    // Forgets `path` (a read in flight goes on).
    void forget(const QString& path) { kept_.remove(path); }
    void setBudgetChars(qint64 chars) { budgetChars_ = chars; }
    int keptCount() const { return int(kept_.size()); }
    // How many reads of files have started (a file found here starts none).
    int readsStarted() const { return readsStarted_; }

    // OCR of read PDFs' pages without a usable text layer: on unless FOLIO_OCR=off.
    void setOcrEnabled(bool on) { ocrEnabled_ = on; }
    bool ocrEnabled() const { return ocrEnabled_; }
    // Where OCR readings are cached; "" (default): <cache location>/ocr.
    void setOcrCacheDir(const QString& dir) { ocrCacheDir_ = dir; }
    // Reads the pages of the read document at `path` that OCR has not read yet (waiting, or
    // failed before); a read in flight goes on. False when there is nothing to read.
    bool readOcr(const QString& path);
    // Stops the OCR of `path`; what was read stays (in the document and the cache).
    void cancelOcr(const QString& path);
    bool isReadingOcr(const QString& path) const { return ocr_.contains(path); }
    // The OCR languages for the document at `path` ("auto", "eng", "chi_sim", "eng+chi_sim"):
    // the choice of the chat that shows it (ChatDocument::ocrLanguages), "auto" until one is
    // set. Set before the file is read, its OCR starts with them; a change for a read document
    // reads its OCR pages again with them (the OCR cache keeps each language's readings apart).
    QString ocrLanguages(const QString& path) const;
    void setOcrLanguages(const QString& path, const QString& languages);
    // Pages read by Tesseract so far (not taken from the OCR cache): a measure for tests.
    int ocrPagesRead() const { return ocrPagesRead_; }

Q_SIGNALS:
    void progress(const QString& path, int done, int total);
    // The read of `path` ended: Ready, Failed (document.error says why) or cancelled
    // (Failed, `cancelled` true).
    void finished(const QString& path, const folio::ui::Document& document, bool cancelled);
    // OCR of `path`: pages done of total, seconds left (< 0 while unknown).
    void ocrProgress(const QString& path, int done, int total, double etaSeconds);
    // A page's OCR text (or failure) is in `document` now.
    void documentUpdated(const QString& path, const folio::ui::Document& document);
    // The OCR of `path` ended (or could not start): `message` says what went wrong for the
    // user (a missing language pack naming its package, pages that could not be read, a damaged
    // cache entry read again), "" when nothing did.
    void ocrFinished(const QString& path, const folio::ui::Document& document, bool cancelled,
                     const QString& message);

private:
    struct Kept {
        Document document;
        QDateTime modified;
        qint64 size = 0;
        quint64 lastUse = 0;
        qint64 chars = 0;
    };
    void keep(const QString& path, const Document& document, const QDateTime& modified,
              qint64 size);
    void trim();
    void startOcr(const QString& path, const Document& document);
    void onOcrPage(const QString& path, const ocr::PageOutcome& outcome);
    void onOcrFinished(const QString& path, bool cancelled);

    struct OcrRead {
        ocr::OcrRunner* runner = nullptr;
        Document document; // as OCR fills it
        QStringList problems;
    };

    QHash<QString, Kept> kept_;
    QHash<QString, QFutureWatcher<Document>*> reads_;
    qint64 budgetChars_ = kDefaultBudgetChars;
    quint64 clock_ = 0;
    int readsStarted_ = 0;
    QHash<QString, OcrRead> ocr_; // by path, while OCR runs
    bool ocrEnabled_ = true;
    QString ocrCacheDir_;
    QHash<QString, QString> ocrLanguages_; // by path: the chat's choice, when not "auto"
    int ocrPagesRead_ = 0;
};

} // namespace folio::ui
