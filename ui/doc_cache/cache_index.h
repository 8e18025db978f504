#pragma once
// The document-cache folder: KV snapshots of a chat's document prefix (the system turn with its
// documents, DESIGN of issue #22 §4) saved by the engine, and an index (index.json, written
// atomically) that says which snapshot holds what. An entry's key hashes everything that makes
// the snapshot's tokens and their KV: the model's fingerprint, the documents' fingerprints in
// order, the prompt layout's version and the KV storage type. A size budget evicts the least
// recently used snapshots first. Not thread-safe: one owner (EngineWorker's thread, or the
// Settings dialog on the GUI thread, each with its own object over the same folder: every
// change re-reads the index first and writes it back at once).

#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>

namespace folio::ui {

// Bump when pipeline/prompt_builder changes the system turn's layout (labels, page markers,
// separators): snapshots made with another layout hold other tokens and must not be used.
inline constexpr int kPromptLayoutVersion = 1;

struct CacheEntry {
    QString key;           // cacheKey(...), hex
    QString fileName;      // the snapshot, inside the folder
    QString model;         // the model's name (for the Settings list)
    QStringList documents; // titles, in prompt order
    qint64 tokens = 0;
    qint64 bytes = 0; // the snapshot file's size
    QDateTime created, lastUsed;
};

// SHA-256 (hex) over the model fingerprint, the document fingerprints in order, the layout
// version and the KV type ("f16", ...).
QString cacheKey(const QString& modelFingerprint, const QStringList& documentFingerprints,
                 int layoutVersion, const QString& kvType);

class CacheIndex {
public:
    // `dir` empty: defaultDir(). The folder is made when first written.
    explicit CacheIndex(QString dir = QString());

    // QStandardPaths::CacheLocation + "/document-caches".
    static QString defaultDir();
    // The size budget in bytes (QSettings "documentCache/budgetBytes", default 4 GiB).
    static qint64 budgetSetting();
    static void setBudgetSetting(qint64 bytes);
    static constexpr qint64 kDefaultBudget = qint64(4) << 30;

    const QString& dir() const { return dir_; }
    QString indexPath() const;
    QString pathOf(const CacheEntry& entry) const;

    // Re-reads index.json. A corrupt index is dropped (with a log line) and the folder's
    // snapshots that no entry names are removed; entries whose file is gone are dropped.
    void reload();
    QList<CacheEntry> entries() const { return entries_; } // most recently used first
    qint64 totalBytes() const;

    // The entry for `key` whose snapshot file exists, or nullptr.
    const CacheEntry* find(const QString& key);
    // Where a new snapshot for `key` should be written (inside the folder, which is made);
    // empty with `error` set when the folder cannot be made.
    QString newFilePath(const QString& key, QString* error);
    // Records a snapshot written at `entry.fileName` (replacing an entry with the same key),
    // then evicts least recently used entries over `budget` bytes (never the new one). Returns
    // "" or a message (the index could not be written: the snapshot is removed again).
    QString add(CacheEntry entry, qint64 budget);
    // Marks the entry used now (LRU order).
    void touch(const QString& key);
    // Removes the entry and its snapshot (a snapshot the engine found corrupt or stale, with
    // `reason` in the log; or the user's Delete).
    void remove(const QString& key, const QString& reason = QString());
    void removeAll();
    // The user's Delete, undoable (issue #48 §13): the entries leave the index and their
    // snapshots move into the folder's "deleted" folder; restore() puts them back as they were,
    // purgeDeleted() removes what is there for good (the Settings dialog does when it closes, and
    // when it opens: what a crash left there). Returns the entries taken out.
    QList<CacheEntry> takeOut(const QStringList& keys);
    void restore(const QList<CacheEntry>& entries);
    void purgeDeleted();
    QString deletedDir() const;
    // Evicts least recently used entries until the total is at most `budget` (except `keep`).
    void enforceBudget(qint64 budget, const QString& keep = QString());

private:
    QString save();

    QString dir_;
    QList<CacheEntry> entries_;
};

} // namespace folio::ui
