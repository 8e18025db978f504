#include "backend/document_reader.h"
#include "backend/user_error.h"

#include "core/pipeline/page_images.h"
#include "doc_cache/reading_checkpoints.h"

#include <QFile>
#include <QFutureWatcher>
#include <QtConcurrent>

#include <utility>

namespace folio::ui {

namespace {

struct SnapshotResult {
    bool ok = false;
    QString error;
    qint64 tokens = 0, bytes = 0;
    double seconds = 0;
};

SnapshotResult toResult(const Expected<SnapshotInfo>& r) {
    SnapshotResult out;
    out.ok = r.has_value();
    if (r) {
        out.tokens = r->tokens;
        out.bytes = static_cast<qint64>(r->bytes);
        out.seconds = r->seconds;
    } else {
        out.error = userErrorText(r.error());
    }
    return out;
}

} // namespace

DocumentReader::DocumentReader(const std::shared_ptr<Engine>& engine, SessionId chatSession,
                               QObject* parent)
    : QObject(parent), link_(std::make_shared<Link>()), engine_(engine), chatSession_(chatSession),
      session_(engine->create_session()) {
    link_->reader = this;
}

DocumentReader::~DocumentReader() {
    {
        std::lock_guard lock(link_->m);
        link_->reader = nullptr;
    }
    if (auto e = engine_.lock()) {
        if (running_)
            e->cancel(running_);
        e->close_session(session_);
    }
}

void DocumentReader::setCacheDir(const QString& dir) {
    index_ = CacheIndex(dir);
    checkpoints_ = ReadingCheckpoints(dir);
}

void DocumentReader::setModel(const QString& fingerprint, const QString& name,
                              const QString& kvType) {
    cancel();
    model_ = fingerprint;
    modelName_ = name;
    kvType_ = kvType;
    done_ = false;
    start();
}

void DocumentReader::read(const DocumentPrefix& prefix) {
    if (prefix.sameAs(prefix_) && (busy() || done_))
        return;
    cancel();
    prefix_ = prefix;
    done_ = false;
    start();
}

void DocumentReader::cancel() {
    ++generation_;
    if (running_)
        if (auto e = engine_.lock())
            e->cancel(running_);
    running_ = 0;
    loading_ = saving_ = rendering_ = false;
    rendered_ = -1;
    next_ = 0;
    tokens_ = docStart_ = 0;
    checkpointCancel_ = checkpointsOff_ = false;
    checkpointTokens_ = readingTotal_ = 0;
}

void DocumentReader::pause() {
    paused_ = true;
    if (running_)
        if (auto e = engine_.lock())
            e->cancel(running_); // keeps what was read; onRequestDone sees "cancelled"
}

void DocumentReader::resume() {
    paused_ = false;
    if (!prefix_.isEmpty() && !model_.isEmpty() && !done_ && !busy())
        readNext();
}

QString DocumentReader::keyFor(qsizetype documents) const {
    // Documents whose scanned pages go in as images add the projector to their id: a text-only
    // snapshot never serves a prompt with images, nor one of another projector.
    return cacheKey(model_, prefix_.cacheIds().mid(0, documents), kPromptLayoutVersion, kvType_);
}

void DocumentReader::start() {
    if (prefix_.isEmpty() || model_.isEmpty())
        return;
    clock_.start();
    sinceCheckpoint_.start();
    ++generation_;
    if (!loadCached() && !loadCheckpoint())
        readNext();
}

// Loads the snapshot of the longest cached run of leading documents (all of them, or the ones
// before a document added at the end), off this thread: load_snapshot blocks until the engine's
// worker has read the file. Returns false when there is none.
bool DocumentReader::loadCached() {
    // find() re-reads the index; its pointer lasts until the next call, so it is copied.
    const CacheEntry* entry = nullptr;
    qsizetype count = prefix_.documents.size();
    for (; count > 0; --count)
        if ((entry = index_.find(keyFor(count))))
            break;
    if (!entry)
        return false;
    const CacheEntry found = *entry;
    const QString path = index_.pathOf(found);
    // Into the chat's session when no question runs there (its next question then reuses every
    // token), else into the reading session (the chat's session adopts it through the prefix
    // cache, a block at a time).
    const SessionId target = paused_ ? session_ : chatSession_;
    loading_ = true;
    const quint64 generation = generation_;
    auto* watcher = new QFutureWatcher<SnapshotResult>(this);
    connect(watcher, &QFutureWatcher<SnapshotResult>::finished, this,
            [this, watcher, generation, found, count] {
                const SnapshotResult r = watcher->result();
                watcher->deleteLater();
                if (generation != generation_)
                    return;
                loading_ = false;
                if (!r.ok) {
                    // Checksums, model or KV type did not match, or the file is unreadable.
                    index_.remove(found.key, tr("the snapshot cannot be used (%1); reading the "
                                                "documents again")
                                                 .arg(r.error));
                    start();
                    return;
                }
                index_.touch(found.key);
                if (count == prefix_.documents.size())
                    checkpoints_.remove(found.key); // a reading finished since (elsewhere)
                tokens_ = docStart_ = r.tokens;
                next_ = count;
                for (qsizetype i = 0; i < count; ++i)
                    Q_EMIT documentRead(prefix_.documents[i].fingerprint,
                                        i + 1 == count ? r.tokens : -1);
                if (next_ >= prefix_.documents.size()) {
                    done_ = true;
                    Q_EMIT finished(r.tokens, true, clock_.elapsed() / 1000.0);
                } else if (!paused_) {
                    readNext();
                }
            });
    std::weak_ptr<Engine> weak = engine_;
    const std::string file = path.toStdString();
    watcher->setFuture(QtConcurrent::run([weak, target, file] {
        std::shared_ptr<Engine> e = weak.lock();
        if (!e)
            return SnapshotResult{false, QStringLiteral("the engine is gone"), 0, 0, 0};
        return toResult(e->load_snapshot(target, file));
    }));
    return true;
}

void DocumentReader::readNext() {
    if (paused_ || busy() || prefix_.isEmpty() || model_.isEmpty())
        return;
    if (next_ >= prefix_.documents.size()) {
        saveSnapshot();
        return;
    }
    std::shared_ptr<Engine> e = engine_.lock();
    if (!e)
        return;
    const PrefixDocument doc = prefix_.documents[next_];
    if (!doc.images.isEmpty() && rendered_ != next_) {
        renderPages(doc.images);
        return;
    }
    Request r;
    Message system{"system", doc.systemThrough.toStdString(), {}, {}};
    for (const PrefixPageImage& image : doc.images) // as request_builder passes the question's
        system.images.push_back(ImageInput{image.file.toStdString(), 0, 0, {}});
    r.messages.push_back(std::move(system));
    r.max_tokens = 0;      // prefill only
    r.interactive = false; // questions go first
    // No assistant header after the system turn: the read prefix must be a token prefix of
    // the question's prompt {system, user, ...} (engine.h Request::generation_prompt).
    r.generation_prompt = false;
    const quint64 generation = generation_;
    const QString fingerprint = doc.fingerprint;
    std::shared_ptr<Link> link = link_;
    // The engine counts the positions this request computes; the session holds tokens_ already
    // (earlier documents, and what a checkpoint or a pause kept of this one), which it reuses.
    // The document's progress counts from its own start; checkpoints count from the prompt's.
    const qint64 base = tokens_, inDocument = tokens_ - docStart_;
    r.callbacks.on_prefill_progress = [link, fingerprint, generation, base,
                                       inDocument](int64_t done, int64_t total, double eta) {
        std::lock_guard lock(link->m);
        if (DocumentReader* self = link->reader) {
            Q_EMIT self->progress(fingerprint, inDocument + done, inDocument + total, eta);
            QMetaObject::invokeMethod(
                self,
                [self, generation, done = base + done, total = base + total] {
                    self->onReadProgress(generation, done, total);
                },
                Qt::QueuedConnection);
        }
    };
    r.callbacks.on_done = [link, generation](const RequestStats& st) {
        const QString stop = QString::fromStdString(st.stop_reason);
        const qint64 tokens = st.prompt_tokens;
        const qint64 read = st.prompt_read_tokens;
        std::lock_guard lock(link->m);
        if (DocumentReader* self = link->reader)
            QMetaObject::invokeMethod(
                self,
                [self, generation, stop, tokens, read] {
                    self->onRequestDone(generation, stop, tokens, read);
                },
                Qt::QueuedConnection);
    };
    r.callbacks.on_error = [link, generation](const Error& err) {
        const QString message = userErrorText(err);
        std::lock_guard lock(link->m);
        if (DocumentReader* self = link->reader)
            QMetaObject::invokeMethod(
                self, [self, generation, message] { self->onRequestFailed(generation, message); },
                Qt::QueuedConnection);
    };
    running_ = e->submit(session_, std::move(r));
}

void DocumentReader::renderPages(const QList<PrefixPageImage>& images) {
    rendering_ = true;
    const quint64 generation = generation_;
    const qsizetype document = next_;
    auto* watcher = new QFutureWatcher<QString>(this);
    connect(watcher, &QFutureWatcher<QString>::finished, this,
            [this, watcher, generation, document] {
                const QString error = watcher->result();
                watcher->deleteLater();
                if (generation != generation_)
                    return;
                rendering_ = false;
                if (!error.isEmpty()) {
                    // The question would carry this page without its image: no prefix read
                    // here would match it.
                    ++generation_;
                    done_ = true;
                    Q_EMIT message(tr("The documents could not be read ahead: %1. Questions "
                                      "still include them.")
                                       .arg(error));
                    return;
                }
                rendered_ = document;
                readNext();
            });
    const PageRenderParams params = prefix_.renderParams;
    const QString dir = prefix_.pageImageDir;
    // Earlier documents' pages are found on disk at once (page_images.h).
    watcher->setFuture(QtConcurrent::run([images, params, dir] {
        for (const PrefixPageImage& image : images) {
            const PageImageResult r =
                scannedPageImage(image.pdfPath, image.fingerprint, image.page, params, dir);
            if (!r.ok())
                return r.error;
        }
        return QString();
    }));
}

void DocumentReader::onRequestDone(quint64 generation, const QString& stopReason,
                                   qint64 promptTokens, qint64 readTokens) {
    if (generation != generation_)
        return;
    running_ = 0;
    const bool forCheckpoint = std::exchange(checkpointCancel_, false);
    if (stopReason == QLatin1String("cancelled") && readTokens > 0)
        tokens_ = readTokens; // the session keeps what was read
    if (stopReason == QLatin1String("cancelled") && forCheckpoint && !paused_ &&
        readTokens > checkpointTokens_) {
        saveCheckpoint(); // then reads on
        return;
    }
    if (stopReason == QLatin1String("length")) {
        tokens_ = docStart_ = promptTokens;
        Q_EMIT documentRead(prefix_.documents[next_].fingerprint, promptTokens);
        ++next_;
    } else if (stopReason != QLatin1String("cancelled")) {
        return; // "error": onRequestFailed reports it
    }
    readNext(); // a paused reading waits for resume()
}

void DocumentReader::onRequestFailed(quint64 generation, const QString& error) {
    if (generation != generation_)
        return;
    running_ = 0;
    ++generation_; // stop here: the same prefix would fail the same way
    done_ = true;
    Q_EMIT message(tr("The documents could not be read ahead: %1. Questions still include "
                      "them.")
                       .arg(error));
}

void DocumentReader::saveSnapshot() {
    QString error;
    const QString key = keyFor(prefix_.documents.size());
    const QString path = index_.newFilePath(key, &error);
    const double readSeconds = clock_.elapsed() / 1000.0;
    if (path.isEmpty()) {
        done_ = true;
        Q_EMIT message(error);
        Q_EMIT finished(tokens_, false, readSeconds);
        return;
    }
    saving_ = true;
    const quint64 generation = generation_;
    CacheEntry entry;
    entry.key = key;
    entry.fileName = QFileInfo(path).fileName();
    entry.model = modelName_;
    entry.documents = prefix_.titles();
    auto* watcher = new QFutureWatcher<SnapshotResult>(this);
    connect(watcher, &QFutureWatcher<SnapshotResult>::finished, this,
            [this, watcher, generation, entry, path, readSeconds]() mutable {
                const SnapshotResult r = watcher->result();
                watcher->deleteLater();
                if (!r.ok)
                    QFile::remove(path); // the engine writes atomically; make sure
                if (generation != generation_)
                    return;
                saving_ = false;
                done_ = true;
                if (!r.ok) {
                    Q_EMIT message(tr("The document cache could not be saved (%1). The "
                                      "documents stay read until the model changes; nothing "
                                      "else was affected.")
                                       .arg(r.error));
                } else {
                    checkpoints_.remove(entry.key); // read to the end: nothing to resume
                    entry.tokens = r.tokens;
                    const QString indexError = index_.add(entry, CacheIndex::budgetSetting());
                    if (!indexError.isEmpty())
                        Q_EMIT message(tr("The document cache could not be saved: %1. The "
                                          "documents stay read until the model changes.")
                                           .arg(indexError));
                }
                Q_EMIT finished(tokens_, false, readSeconds);
            });
    std::weak_ptr<Engine> weak = engine_;
    const SessionId session = session_;
    const std::string file = path.toStdString();
    watcher->setFuture(QtConcurrent::run([weak, session, file] {
        std::shared_ptr<Engine> e = weak.lock();
        if (!e)
            return SnapshotResult{false, QStringLiteral("the engine is gone"), 0, 0, 0};
        return toResult(e->save_snapshot(session, file));
    }));
}

// A reading of this prefix that was stopped without warning (no finished snapshot was found):
// its checkpoint goes into the reading session, off this thread, and the reading goes on from
// the document it was in. Returns false when there is none (or it is damaged: then it is
// removed with a log line and the reading starts from the beginning).
bool DocumentReader::loadCheckpoint() {
    const QString key = keyFor(prefix_.documents.size());
    QString note;
    const std::optional<ReadingCheckpoint> found = checkpoints_.find(key, &note);
    if (!note.isEmpty())
        qWarning().noquote() << "document reading: the saved reading progress is damaged (" << note
                             << "); reading the documents from the start";
    if (!found)
        return false;
    const ReadingCheckpoint cp = *found;
    if (cp.documents >= prefix_.documents.size() || (cp.documents == 0) != (cp.start == 0) ||
        prefix_.documents[cp.documents].fingerprint != cp.fingerprint) {
        qWarning("document reading: the saved reading progress does not fit the documents; "
                 "reading them from the start");
        checkpoints_.remove(key);
        return false;
    }
    loading_ = true;
    const quint64 generation = generation_;
    auto* watcher = new QFutureWatcher<SnapshotResult>(this);
    connect(watcher, &QFutureWatcher<SnapshotResult>::finished, this,
            [this, watcher, generation, cp] {
                const SnapshotResult r = watcher->result();
                watcher->deleteLater();
                if (generation != generation_)
                    return;
                loading_ = false;
                if (!r.ok || r.tokens != cp.tokens) {
                    // A failed load changes nothing: the session is still empty.
                    qWarning().noquote()
                        << "document reading: the saved reading progress cannot be used ("
                        << (r.ok ? QStringLiteral("%1 tokens, its note says %2")
                                       .arg(r.tokens)
                                       .arg(cp.tokens)
                                 : r.error)
                        << "); reading the documents from the start";
                    checkpoints_.remove(cp.key);
                    if (r.ok)
                        if (auto e = engine_.lock())
                            e->reset_session(session_);
                    readNext();
                    return;
                }
                tokens_ = checkpointTokens_ = r.tokens;
                docStart_ = cp.start;
                readingTotal_ = cp.total;
                next_ = cp.documents;
                sinceCheckpoint_.restart();
                for (qsizetype i = 0; i < next_; ++i)
                    Q_EMIT documentRead(prefix_.documents[i].fingerprint, -1);
                Q_EMIT resumed(cp.fingerprint, r.tokens - cp.start, cp.total - cp.start);
                readNext(); // the engine reuses the snapshot's tokens as far as they match
            });
    std::weak_ptr<Engine> weak = engine_;
    const SessionId session = session_;
    const std::string file = checkpoints_.pathOf(cp).toStdString();
    watcher->setFuture(QtConcurrent::run([weak, session, file] {
        std::shared_ptr<Engine> e = weak.lock();
        if (!e)
            return SnapshotResult{false, QStringLiteral("the engine is gone"), 0, 0, 0};
        return toResult(e->load_snapshot(session, file));
    }));
    return true;
}

// A prefill step of the reading ended: when the interval has passed and enough was read since
// the last checkpoint, the request is stopped (it keeps what it read) to save one.
void DocumentReader::onReadProgress(quint64 generation, qint64 done, qint64 total) {
    if (generation != generation_ || !running_)
        return;
    readingTotal_ = total;
    if (checkpointMs_ < 0 || checkpointsOff_ || checkpointCancel_ || paused_ || done >= total ||
        done - checkpointTokens_ < kCheckpointTokens || sinceCheckpoint_.elapsed() < checkpointMs_)
        return;
    if (auto e = engine_.lock()) {
        checkpointCancel_ = true;
        e->cancel(running_);
    }
}

// Saves the reading session (off this thread; the engine writes the snapshot atomically), then
// names it in the checkpoint's note (atomically), then reads on.
void DocumentReader::saveCheckpoint() {
    const QString key = keyFor(prefix_.documents.size());
    const QString path = checkpoints_.newSnapshotPath(key);
    if (path.isEmpty()) {
        checkpointsOff_ = true; // the folder cannot be made: saveSnapshot will say so
        readNext();
        return;
    }
    saving_ = true;
    const quint64 generation = generation_;
    ReadingCheckpoint cp;
    cp.key = key;
    cp.snapshotFile = QFileInfo(path).fileName();
    cp.documents = next_;
    cp.start = docStart_;
    cp.total = readingTotal_;
    cp.fingerprint = prefix_.documents[next_].fingerprint;
    auto* watcher = new QFutureWatcher<SnapshotResult>(this);
    connect(watcher, &QFutureWatcher<SnapshotResult>::finished, this,
            [this, watcher, generation, cp, path]() mutable {
                const SnapshotResult r = watcher->result();
                watcher->deleteLater();
                if (!r.ok || generation != generation_) {
                    QFile::remove(path);
                    if (generation != generation_)
                        return;
                }
                saving_ = false;
                QString error = r.ok ? QString() : r.error;
                if (r.ok) {
                    cp.tokens = r.tokens;
                    cp.total = qMax(cp.total, r.tokens);
                    error = checkpoints_.commit(cp);
                    if (!error.isEmpty())
                        QFile::remove(path);
                }
                if (error.isEmpty()) {
                    checkpointTokens_ = r.tokens;
                    sinceCheckpoint_.restart();
                    Q_EMIT checkpointSaved(r.tokens);
                } else {
                    // Reading goes on without checkpoints; only a kill would cost anything.
                    checkpointsOff_ = true;
                    qWarning().noquote() << "document reading: the reading progress cannot be "
                                            "saved:"
                                         << error;
                }
                readNext();
            });
    std::weak_ptr<Engine> weak = engine_;
    const SessionId session = session_;
    const std::string file = path.toStdString();
    watcher->setFuture(QtConcurrent::run([weak, session, file] {
        std::shared_ptr<Engine> e = weak.lock();
        if (!e)
            return SnapshotResult{false, QStringLiteral("the engine is gone"), 0, 0, 0};
        return toResult(e->save_snapshot(session, file));
    }));
}

} // namespace folio::ui
