#include "core/pipeline/page_selection.h"

#include "core/pipeline/page_ranges.h"
#include "core/pipeline/page_ranking.h"

#include <QCoreApplication>
#include <QMutexLocker>

#include <algorithm>
#include <numeric>

namespace folio::ui {

namespace {

QString tr(const char* text) {
    // The context lupdate gives a tr() of a function in namespace folio::ui.
    return QCoreApplication::translate("folio::ui", text);
}

// The text the documents add besides their pages: the citation rule once and their labels
// (the line naming the pages of a partial document is counted where it is added).
qint64 headerTokens(const QList<PageSource>& documents, const TokenCounter& counter) {
    QString text;
    if (!documents.isEmpty())
        text += citationRule();
    for (int d = 0; d < documents.size(); ++d)
        text += documentLabel(documents[d].number > 0 ? documents[d].number : d + 1,
                              documents[d].title);
    return text.isEmpty() ? 0 : counter.text(text);
}

QList<int> allPages(int count) {
    QList<int> pages(count);
    std::iota(pages.begin(), pages.end(), 1);
    return pages;
}

} // namespace

QList<qint64> PageTokenCache::pageTokens(const PageSource& document, const TokenCounter& counter) {
    // Pages read as images cost their image instead of their (empty) text.
    // The text's hash too: a page's OCR text arrives after the document loaded (same file).
    size_t textHash = 0;
    for (const QString& text : document.pageTexts)
        textHash = qHashMulti(textHash, text);
    QString key = document.fingerprint + QLatin1Char('\n') + counter.tokenizerId() +
                  QLatin1Char('\n') + QString::number(textHash, 16);
    for (auto it = document.pageImages.cbegin(); it != document.pageImages.cend(); ++it)
        key += QStringLiteral("\n%1:%2").arg(it.key()).arg(it->tokens);
    if (!document.fingerprint.isEmpty()) {
        QMutexLocker lock(&mutex_);
        auto it = counts_.constFind(key);
        if (it != counts_.cend() && it->size() == document.pageTexts.size())
            return *it;
    }
    // Counted without the lock: two threads may count the same document once each.
    QList<qint64> counts;
    counts.reserve(document.pageTexts.size());
    for (int i = 0; i < document.pageTexts.size(); ++i) {
        if (auto it = document.pageImages.constFind(i + 1); it != document.pageImages.cend())
            // The marker text becomes <|media_start|>, the image's rows and <|media_end|>.
            counts << counter.text(pageBlock(i + 1, QString())) + it->tokens + 2;
        else
            counts << counter.text(pageBlock(i + 1, document.pageTexts[i]));
    }
    QMutexLocker lock(&mutex_);
    pagesCounted_ += counts.size();
    if (!document.fingerprint.isEmpty()) {
        if (!counts_.contains(key))
            order_ << key;
        counts_.insert(key, counts);
        while (order_.size() > kMaxEntries)
            counts_.remove(order_.takeFirst());
    }
    return counts;
}

qint64 PageTokenCache::pagesCounted() const {
    QMutexLocker lock(&mutex_);
    return pagesCounted_;
}

int PageTokenCache::entries() const {
    QMutexLocker lock(&mutex_);
    return int(counts_.size());
}

QString DocumentPages::formatted() const {
    return formatPageRanges(pages, pageCount);
}

QString DocumentPages::explained() const {
    if (reasons.isEmpty() || pages.isEmpty())
        return formatted();
    return explainPages(pages, reasons, pageCount);
}

QString explainPages(const QList<int>& pages, const QHash<int, PageReason>& reasons,
                     int pageCount) {
    static const PageReason order[] = {PageReason::Pinned,    PageReason::Cited,
                                       PageReason::BestMatch, PageReason::Contents,
                                       PageReason::Match,     PageReason::Other};
    QStringList groups;
    for (PageReason reason : order) {
        QList<int> group;
        for (int p : pages)
            if (reasons.value(p, PageReason::Other) == reason)
                group << p;
        if (group.isEmpty())
            continue;
        QString why;
        switch (reason) {
        case PageReason::Pinned:
            why = tr("%1 (pinned)");
            break;
        case PageReason::Cited:
            why = tr("%1 (cited before)");
            break;
        case PageReason::BestMatch:
            why = tr("%1 (best match)");
            break;
        case PageReason::Contents:
            why = tr("%1 (contents)");
            break;
        case PageReason::Match:
            why = tr("%1 (other matches)");
            break;
        case PageReason::Other:
            why = tr("%1 (room left)");
            break;
        }
        groups << why.arg(formatPageList(group));
    }
    const QString list = groups.join(QStringLiteral(", "));
    return pages.size() == 1 ? tr("page %1 of %L2").arg(list).arg(pageCount)
                             : tr("pages %1 of %L2").arg(list).arg(pageCount);
}

bool PageSelection::complete() const {
    return std::all_of(documents.cbegin(), documents.cend(),
                       [](const DocumentPages& d) { return d.all(); });
}

int PageSelection::pages() const {
    int n = 0;
    for (const DocumentPages& d : documents)
        n += int(d.pages.size());
    return n;
}

PageSelection selectAllPages(const QList<PageSource>& documents, const TokenCounter& counter,
                             PageTokenCache& cache) {
    PageSelection s;
    s.tokens = headerTokens(documents, counter);
    for (const PageSource& d : documents) {
        for (qint64 n : cache.pageTokens(d, counter))
            s.tokens += n;
        SourceDocument source;
        source.title = d.title;
        source.pageTexts = d.pageTexts;
        source.number = d.number;
        source.pageImages = d.pageImages;
        s.sources << source;
        DocumentPages pages;
        pages.title = d.title;
        pages.pageCount = int(d.pageTexts.size());
        pages.pages = allPages(pages.pageCount);
        s.documents << pages;
    }
    return s;
}

PageSelection selectPages(const QList<PageSource>& documents, const QString& question,
                          const QList<QList<int>>& citedPages, qint64 budgetTokens,
                          const TokenCounter& counter, PageTokenCache& cache) {
    PageSelection all = selectAllPages(documents, counter, cache);
    if (all.tokens <= budgetTokens)
        return all;

    QList<QList<qint64>> tokens;
    RankingInput input;
    input.question = question;
    input.citedPages = citedPages;
    for (const PageSource& d : documents) {
        tokens << cache.pageTokens(d, counter);
        input.pageTexts << d.pageTexts;
        input.pinnedPages << d.pinnedPages;
    }
    QList<QList<int>> chosen(documents.size());
    QList<QHash<int, PageReason>> reasons(documents.size());
    qint64 used = headerTokens(documents, counter);
    // Every document may turn out partial: its note line is reserved.
    const qint64 note = counter.text(partialDocumentNote());
    used += note * documents.size();
    for (const PageRef& r : rankPages(input)) {
        const qint64 cost = tokens[r.document][r.page - 1];
        if (used + cost > budgetTokens)
            continue; // a smaller page further down may still fit
        used += cost;
        chosen[r.document] << r.page;
        reasons[r.document].insert(r.page, r.reason);
    }

    PageSelection s;
    s.tokens = headerTokens(documents, counter);
    for (int d = 0; d < documents.size(); ++d) {
        QList<int>& pages = chosen[d];
        std::sort(pages.begin(), pages.end());
        const int count = int(documents[d].pageTexts.size());
        SourceDocument source;
        source.title = documents[d].title;
        source.pageTexts = documents[d].pageTexts;
        source.number = documents[d].number;
        source.pageImages = documents[d].pageImages;
        if (pages.size() < count) {
            source.somePages = true;
            source.pageNumbers = pages;
            s.tokens += note;
        }
        for (int p : pages)
            s.tokens += tokens[d][p - 1];
        s.sources << source;
        DocumentPages dp;
        dp.title = documents[d].title;
        dp.pageCount = count;
        dp.pages = pages;
        if (pages.size() < count)
            dp.reasons = reasons[d];
        s.documents << dp;
    }
    return s;
}

} // namespace folio::ui
