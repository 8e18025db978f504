#pragma once
// The documents the workbench has read, shared by every chat: each file is read once, in the
// thread pool, and kept (by path, while its size and modification time stay the same) so that
// a visit to a chat with a 2,000-page PDF finds its pages at once instead of reading them again
// on every switch. A read in flight is never restarted by a chat switch; it can be cancelled
// when no chat needs it any more. Failed and cancelled reads are not kept (a retry reads).

#include "core/documents/document.h"

#include <QDateTime>
#include <QFutureWatcher>
#include <QHash>
#include <QObject>
#include <QString>

#include <optional>

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

Q_SIGNALS:
    void progress(const QString& path, int done, int total);
    // The read of `path` ended: Ready, Failed (document.error says why) or cancelled
    // (Failed, `cancelled` true).
    void finished(const QString& path, const folio::ui::Document& document, bool cancelled);

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

    QHash<QString, Kept> kept_;
    QHash<QString, QFutureWatcher<Document>*> reads_;
    qint64 budgetChars_ = kDefaultBudgetChars;
    quint64 clock_ = 0;
    int readsStarted_ = 0;
};

} // namespace folio::ui
