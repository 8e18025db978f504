#pragma once
// The GUI side of background reading and exact document sizes (issue #22 §2, §4): asks the
// worker to read the current chat's document prefix whenever it changes (documents, system
// prompt, model), turns the worker's reading signals into a line per document for the
// Documents pane and one for the status bar, and shows exact per-document token counts
// (TokenCountCache) once the model's tokenizer is known. Lives on the GUI thread.

#include "core/pipeline/eta.h"
#include "doc_cache/document_prefix.h"
#include "doc_cache/token_count_cache.h"

#include <QHash>
#include <QObject>
#include <QString>

#include <functional>

class QTimer;

namespace folio::ui {

class ReadingPresenter : public QObject {
    Q_OBJECT
public:
    explicit ReadingPresenter(QObject* parent = nullptr);

    // The chat's system prompt and documents, and whether the embedded engine has a model
    // (`contextLimit` its context). Emits readRequested when the prefix to read changed. Only
    // documents whose exact sizes are known and that fit the context together with room for a
    // question are read ahead: longer ones get their pages chosen per question, a different
    // prompt each time, which no read-ahead prefix would match.
    // `images`: how scanned pages go in (as the chat's questions put them).
    void update(const QString& systemPrompt, const QList<Document>& documents, bool engineReady,
                qint64 contextLimit, const PrefixImageOptions& images = {});
    TokenCountCache* tokenCounts() { return &counts_; }

    // "12,345 tokens · fits" / "12,345 tokens · too long: pages will be chosen per question".
    static QString tokenLine(qint64 tokens, qint64 contextLimit);
    // "reading 45% · about 2 min left".
    static QString progressLine(qint64 done, qint64 total, double etaSeconds);
    // The clock the time left is measured on (seconds; tests script it).
    void setClock(std::function<double()> clock) { clock_ = std::move(clock); }
    // Re-evaluates the reading lines' time left (a timer calls it every second while reading):
    // when no progress arrives, the estimate grows instead of standing still (issue #48 §9).
    void tick();

public Q_SLOTS:
    // From EngineWorker.
    void onProgress(const QString& fingerprint, qint64 done, qint64 total, double eta);
    void onDocumentRead(const QString& fingerprint, qint64 tokens);
    // The reading goes on from a checkpoint: "resuming at 41%" until its next progress.
    void onResumed(const QString& fingerprint, qint64 done, qint64 total);
    void onFinished(qint64 tokens, bool fromCache, double seconds);
    void onMessage(const QString& message);
    void onCounterChanged(const folio::ui::TokenCounter& counter);

Q_SIGNALS:
    void readRequested(const folio::ui::DocumentPrefix& prefix);
    // Under a document's list item ("" : nothing).
    void documentStatus(const QString& fingerprint, const QString& text);
    void documentTokens(const QString& fingerprint, const QString& text);
    // The status bar's reading line ("" : not reading).
    void statusLine(const QString& text);
    // Something the user must see (a cache that could not be saved).
    void notice(const QString& text);

private:
    void setStatus(const QString& fingerprint, const QString& text);
    void countAll();
    // Re-decides what to read from the last update's arguments.
    void refresh();
    // -1: a size is not known yet; 0: the documents do not fit the context; 1: they fit.
    int prefixFits(const DocumentPrefix& prefix) const;

    DocumentPrefix prefix_;
    QList<Document> documents_;
    QString systemPrompt_;
    PrefixImageOptions images_;
    bool engineReady_ = false;
    bool ready_ = false;
    qint64 contextLimit_ = 0;
    QHash<QString, QString> status_;
    // Each document being read: its progress, the time left from the measured rate
    // (pipeline/eta), and its first progress (time, tokens) for the rate it was read at.
    struct Reading {
        QString title;
        qint64 done = 0, total = 0;
        EtaEstimator eta;
        double firstTime = 0, lastTime = 0;
        qint64 firstDone = 0;
    };
    QHash<QString, Reading> rates_;
    std::function<double()> clock_;
    QTimer* ticker_;
    void showReading(const QString& fingerprint, const Reading& r, double now);
    TokenCountCache counts_;
};

} // namespace folio::ui
