#pragma once
// Which pages of a chat's documents go into a prompt that cannot hold them all: pages in rank
// order (page_ranking.h) while their exact token counts fit the budget, then written in page
// order with their real page numbers, so "[page K]" markers and citations stay right. When
// everything fits, every page goes in and the documents' text is exactly what
// buildSystemPrompt makes of whole documents (the cache prefix does not change).

#include "core/pipeline/page_ranking.h"
#include "core/pipeline/prompt_builder.h"
#include "core/pipeline/token_counter.h"

#include <QHash>
#include <QList>
#include <QMutex>
#include <QString>
#include <QStringList>

namespace folio::ui {

struct PageSource {
    QString title;
    QStringList pageTexts;
    QList<int> pinnedPages; // 1-based: always go in (as far as the budget reaches)
    QString fingerprint;    // of the file: the key of cached counts; empty: not cached
    int number = 0;         // SourceDocument::number
    QHash<int, PageImage> pageImages = {}; // SourceDocument::pageImages
};

// Tokens of each page of a document as the prompt holds it (pageBlock), counted once per
// (document fingerprint, tokenizer) and kept: a 300-page report is counted once per model, not
// per question. Thread-safe; the caller keeps one for as long as counts may be reused.
class PageTokenCache {
public:
    QList<qint64> pageTokens(const PageSource& document, const TokenCounter& counter);
    // How many pages were counted so far (a measure for tests and logs).
    qint64 pagesCounted() const;
    int entries() const;

private:
    static constexpr int kMaxEntries = 64; // documents x tokenizers; the oldest leaves first
    mutable QMutex mutex_;
    QHash<QString, QList<qint64>> counts_;
    QStringList order_; // keys, oldest first
    qint64 pagesCounted_ = 0;
};

// The pages of one document that went in.
struct DocumentPages {
    QString title;
    int pageCount = 0;
    QList<int> pages; // 1-based, ascending
    // Why each page was chosen, when not all went in (page_ranking.h).
    QHash<int, PageReason> reasons;
    bool all() const { return pages.size() == pageCount; }
    // "pages 1–4, 37–52, 118 of 236"
    QString formatted() const;
    // The same with why they were chosen: "pages 146–149 (best match), 7 (contents), 1 (cited
    // before) of 2,415" (issue #48 §12). Without reasons: formatted().
    QString explained() const;
};

// "pages 146–149 (best match), 7 (contents) of 2,415": `pages` grouped by their reasons.
QString explainPages(const QList<int>& pages, const QHash<int, PageReason>& reasons, int pageCount);

struct PageSelection {
    QList<SourceDocument> sources; // for buildSystemPrompt, in the chat's order
    QList<DocumentPages> documents;
    qint64 tokens = 0; // of the documents' text: labels, notes and pages
    bool complete() const;
    int pages() const; // pages included, all documents
};

// Every page of every document (whole documents, as buildSystemPrompt always made them).
PageSelection selectAllPages(const QList<PageSource>& documents, const TokenCounter& counter,
                             PageTokenCache& cache);

// The pages that fit `budgetTokens`: all of them if they fit; else pinned, cited (per document,
// 1-based), contents and then the best BM25 pages for `question`, each while it fits. Pages are
// skipped rather than cut: a page goes in whole or not at all.
PageSelection selectPages(const QList<PageSource>& documents, const QString& question,
                          const QList<QList<int>>& citedPages, qint64 budgetTokens,
                          const TokenCounter& counter, PageTokenCache& cache);

} // namespace folio::ui
