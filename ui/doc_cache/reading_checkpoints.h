#pragma once
// Where a background reading stands, kept on disk so a reading stopped without warning (the
// process killed, the machine off) goes on from there on the next run instead of from token 0
// (issue #48 §8). A checkpoint is a KV snapshot of the reading session (the prefix read so far,
// saved by the engine, atomically) plus a small JSON note naming it, written atomically after
// the snapshot: a kill at any point leaves the previous checkpoint whole. Both live in the
// "reading" folder inside the document-cache folder, one checkpoint per prefix key
// (cache_index.h's cacheKey: model, documents in order, layout, KV type), so a checkpoint only
// ever serves the same prefix; the engine then reuses its tokens only as far as they match the
// prompt token for token. At most kKept prefixes keep a checkpoint (the oldest go).

#include <QString>

#include <optional>

namespace folio::ui {

struct ReadingCheckpoint {
    QString key;          // the whole prefix's cache key
    QString snapshotFile; // inside the folder
    qint64 documents = 0; // documents read completely (the next one is partly read)
    qint64 start = 0;     // prompt positions before the document being read
    qint64 tokens = 0;    // prompt positions in the snapshot
    qint64 total = 0;     // prompt positions through the document being read
    QString fingerprint;  // the document being read
};

class ReadingCheckpoints {
public:
    static constexpr int kKept = 3;

    // `cacheDir`: the document-cache folder (its "reading" subfolder is used).
    explicit ReadingCheckpoints(const QString& cacheDir = QString());

    QString dir() const { return dir_; }
    QString pathOf(const ReadingCheckpoint& c) const;
    // The checkpoint of `key` whose note is sound and whose snapshot exists; a damaged one is
    // removed, with the reason in `*note` (empty when there was none or it was sound).
    std::optional<ReadingCheckpoint> find(const QString& key, QString* note);
    // A new snapshot file for `key` (the folder is made); empty when it cannot be made.
    QString newSnapshotPath(const QString& key) const;
    // Makes `c` the key's checkpoint (its snapshot already written): writes the note atomically,
    // then removes the key's older snapshots and the checkpoints beyond kKept. "" or an error.
    QString commit(const ReadingCheckpoint& c);
    // Removes the key's note and snapshots (the reading finished, or the checkpoint is bad).
    void remove(const QString& key);

private:
    QString notePath(const QString& key) const;
    QString dir_;
};

} // namespace folio::ui
