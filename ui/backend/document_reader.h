#pragma once
// Background reading of a chat's documents (issue #22 §4), owned by EngineWorker and living on
// its thread. The document prefix (doc_cache/document_prefix.h) is read into the KV cache one
// document at a time on a session of its own, as prefill-only background requests
// (Request::max_tokens = 0, interactive = false), so questions go first; whatever it reads is
// offered to the engine's prefix cache, where the chat's session adopts it. The finished prefix
// is saved as a snapshot in the document-cache folder (doc_cache/cache_index.h); the next time
// (after a restart too) the snapshot is loaded into the chat's session instead of reading.
// A question pauses the reading (cancel keeps what was read) and it resumes afterwards, reusing
// what the question read. While a reading runs, its progress is saved every checkpoint interval
// (doc_cache/reading_checkpoints.h: the request is stopped between two prefill chunks, the
// session's snapshot saved, the request resumed where it stopped), so a reading killed without
// warning goes on from its last checkpoint on the next run.

#include "doc_cache/cache_index.h"
#include "doc_cache/document_prefix.h"
#include "doc_cache/reading_checkpoints.h"
#include "folio/engine.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>

#include <memory>
#include <mutex>

namespace folio::ui {

class DocumentReader : public QObject {
    Q_OBJECT
public:
    // `chatSession`: the session questions run on (a loaded snapshot goes there when it is
    // idle). The reader makes its own session on `engine`.
    DocumentReader(const std::shared_ptr<Engine>& engine, SessionId chatSession,
                   QObject* parent = nullptr);
    ~DocumentReader() override;

    void setCacheDir(const QString& dir);
    // The loaded model (its fingerprint, name and KV type); an empty fingerprint: no model
    // (reading stops). A prefix asked for earlier is read for the new model.
    void setModel(const QString& fingerprint, const QString& name, const QString& kvType);
    // Reads `prefix` (cancels reading another one; the same prefix again changes nothing).
    void read(const DocumentPrefix& prefix);
    void cancel();
    // A question runs on the chat's session meanwhile: reading waits for it.
    void pause();
    void resume();
    bool busy() const { return running_ != 0 || loading_ || saving_ || rendering_; }
    // How often the reading's progress is saved (default kCheckpointMs; 0: after every prefill
    // step that read at least kCheckpointTokens; < 0: never).
    void setCheckpointInterval(int ms) { checkpointMs_ = ms; }
    static constexpr int kCheckpointMs = 30000;
    static constexpr qint64 kCheckpointTokens = 256;

Q_SIGNALS:
    // Of the document being read: prompt tokens read and to read, seconds left (engine ETA).
    void progress(const QString& fingerprint, qint64 done, qint64 total, double etaSeconds);
    // The document is in the cache: `tokens` prompt positions through it.
    void documentRead(const QString& fingerprint, qint64 tokens);
    // The whole prefix is in the cache (`fromCache`: loaded from a snapshot).
    void finished(qint64 tokens, bool fromCache, double seconds);
    // Something the user should know (a cache that could not be saved, a reading that failed).
    void message(const QString& text);
    // A reading stopped without warning goes on from its checkpoint: `done` of the `total`
    // positions of the document `fingerprint` are in the cache already.
    void resumed(const QString& fingerprint, qint64 done, qint64 total);
    // The reading's progress was saved (`tokens` positions).
    void checkpointSaved(qint64 tokens);

private:
    void start();
    bool loadCached();
    bool loadCheckpoint();
    void onReadProgress(quint64 generation, qint64 done, qint64 total);
    void saveCheckpoint();
    void readNext();
    // Renders the scanned pages the next document's request carries, in the thread pool.
    void renderPages(const QList<PrefixPageImage>& images);
    void onRequestDone(quint64 generation, const QString& stopReason, qint64 promptTokens,
                       qint64 readTokens);
    void onRequestFailed(quint64 generation, const QString& error);
    void saveSnapshot();
    QString keyFor(qsizetype documents) const;

    // The engine's callbacks reach the reader through this link, cleared (under its mutex) when
    // the reader goes: the engine may outlive it while a task of the thread pool holds it.
    struct Link {
        std::mutex m;
        DocumentReader* reader = nullptr;
    };
    std::shared_ptr<Link> link_;
    std::weak_ptr<Engine> engine_;
    SessionId chatSession_ = 0;
    SessionId session_ = 0;
    CacheIndex index_;
    QString model_, modelName_, kvType_;
    DocumentPrefix prefix_;
    quint64 generation_ = 0; // bumped by every new reading; older callbacks are ignored
    qsizetype next_ = 0;     // the document to read next
    RequestId running_ = 0;
    bool loading_ = false, saving_ = false, paused_ = false, done_ = false;
    bool rendering_ = false;
    qsizetype rendered_ = -1; // the document whose page images are on disk
    qint64 tokens_ = 0;       // prompt positions the reading session holds
    qint64 docStart_ = 0;     // of them, those before the document being read
    QElapsedTimer clock_;
    // Checkpoints: the folder, how often, since when and through which position the last one,
    // the total of the request being read, and a cancel asked for to save one.
    ReadingCheckpoints checkpoints_;
    int checkpointMs_ = kCheckpointMs;
    QElapsedTimer sinceCheckpoint_;
    qint64 checkpointTokens_ = 0, readingTotal_ = 0;
    bool checkpointCancel_ = false, checkpointsOff_ = false;
};

} // namespace folio::ui
