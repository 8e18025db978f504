#include "doc_cache/token_count_cache.h"

#include "core/pipeline/prompt_builder.h"
#include "core/storage/atomic_write.h"
#include "doc_cache/cache_index.h"

#include <QDir>
#include <QFile>
#include <QFutureWatcher>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtConcurrent>

namespace folio::ui {

TokenCountCache::TokenCountCache(const QString& dir, QObject* parent)
    : QObject(parent), path_((dir.isEmpty() ? CacheIndex::defaultDir() : dir) +
                             QStringLiteral("/token-counts.json")) {
    load();
}

QString TokenCountCache::key(const QString& fingerprint, const QString& tokenizer) {
    return fingerprint + QLatin1Char(':') + tokenizer;
}

void TokenCountCache::load() {
    QFile f(path_);
    if (!f.open(QIODevice::ReadOnly))
        return;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll());
    if (!doc.isObject()) {
        qWarning("document cache: %s is corrupt; counting documents again", qPrintable(path_));
        return;
    }
    const QJsonObject o = doc.object();
    for (auto it = o.begin(); it != o.end(); ++it)
        if (it.value().isDouble() && it.value().toInteger() >= 0)
            counts_.insert(it.key(), it.value().toInteger());
}

void TokenCountCache::save() const {
    QJsonObject o;
    for (auto it = counts_.begin(); it != counts_.end(); ++it)
        o.insert(it.key(), it.value());
    QDir().mkpath(QFileInfo(path_).absolutePath());
    // A cache: failing to write it only means counting again after a restart.
    const QString error = writeFileAtomic(path_, QJsonDocument(o).toJson(QJsonDocument::Compact));
    if (!error.isEmpty())
        qWarning("document cache: cannot save token counts: %s", qPrintable(error));
}

void TokenCountCache::setCounter(const TokenCounter& counter) {
    counter_ = counter;
    pending_.clear();
}

qint64 TokenCountCache::cached(const Document& doc) const {
    if (!counter_.exact() || doc.fingerprint.isEmpty())
        return -1;
    return counts_.value(key(doc.textKey(), counter_.tokenizerId()), -1);
}

void TokenCountCache::count(const Document& doc) {
    if (!counter_.exact() || doc.fingerprint.isEmpty() || doc.state != Document::State::Ready ||
        doc.kind != Document::Kind::Pdf)
        return;
    // By the text's key: OCR text of scanned pages is counted once it is there.
    const QString k = key(doc.textKey(), counter_.tokenizerId());
    if (counts_.contains(k)) {
        Q_EMIT counted(doc.fingerprint, counts_.value(k));
        return;
    }
    if (pending_.contains(k))
        return;
    pending_.insert(k);
    const QString text = documentContext({{doc.title, doc.pageTexts}});
    const QString fingerprint = doc.fingerprint;
    auto* watcher = new QFutureWatcher<qint64>(this);
    connect(watcher, &QFutureWatcher<qint64>::finished, this, [this, watcher, k, fingerprint] {
        const qint64 tokens = watcher->result();
        watcher->deleteLater();
        if (!pending_.remove(k) || tokens < 0)
            return; // another tokenizer meanwhile, or counting failed (estimates stay)
        counts_.insert(k, tokens);
        save();
        Q_EMIT counted(fingerprint, tokens);
    });
    watcher->setFuture(
        QtConcurrent::run([counter = counter_, text] { return counter.text(text); }));
}

} // namespace folio::ui
