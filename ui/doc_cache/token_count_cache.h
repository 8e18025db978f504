#pragma once
// Exact token counts per document (issue #22 §2), cached by (document fingerprint, tokenizer
// id): in memory, and in token-counts.json of the document-cache folder so a restart does not
// count again. A count is the document's part of the system turn (its label and page markers,
// pipeline/prompt_builder documentContext) counted with the loaded model's tokenizer, off the
// GUI thread. Lives on the GUI thread.

#include "core/documents/document.h"
#include "core/pipeline/token_counter.h"

#include <QHash>
#include <QObject>
#include <QSet>
#include <QString>

namespace folio::ui {

class TokenCountCache : public QObject {
    Q_OBJECT
public:
    // `dir`: where token-counts.json lives ("" : the document-cache folder).
    explicit TokenCountCache(const QString& dir = QString(), QObject* parent = nullptr);

    // Counts from now on go through `counter` (estimates only: nothing is counted).
    void setCounter(const TokenCounter& counter);
    const TokenCounter& counter() const { return counter_; }
    // The cached count of `doc` for the current tokenizer, or -1 (then count() it).
    qint64 cached(const Document& doc) const;
    // Counts `doc` in the thread pool unless cached; `counted` follows (at once when cached).
    void count(const Document& doc);

Q_SIGNALS:
    void counted(const QString& fingerprint, qint64 tokens);

private:
    static QString key(const QString& fingerprint, const QString& tokenizer);
    void load();
    void save() const;

    QString path_;
    TokenCounter counter_;
    QHash<QString, qint64> counts_; // key() -> tokens
    QSet<QString> pending_;
};

} // namespace folio::ui
