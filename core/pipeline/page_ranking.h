#pragma once
// Ranks the pages of long documents for a question, to choose what goes into a prompt that
// cannot hold every page: Okapi BM25 over page text (Robertson & Zaragoza, "The Probabilistic
// Relevance Framework: BM25 and Beyond", 2009), with pinned pages, pages cited earlier in the
// chat, the best match with the pages that continue it, and tables of contents ahead of it.

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

namespace folio::ui {

// The terms of a text: runs of letters and digits, lower-cased; every CJK ideograph or kana is a
// term of its own (Chinese and Japanese do not separate words with spaces).
QStringList rankingTerms(const QString& text);

// BM25 over a fixed set of pages (each a "document" of the formula):
//   score(q, p) = sum over distinct terms t of q of
//                 idf(t) * tf(t,p) * (k1 + 1) / (tf(t,p) + k1 * (1 - b + b * |p| / avgdl))
//   idf(t) = ln(1 + (N - n(t) + 0.5) / (n(t) + 0.5))
// (the Robertson–Spärck Jones weight with 1 added inside the log so it stays positive).
class Bm25Index {
public:
    static constexpr double kK1 = 1.2;
    static constexpr double kB = 0.75;

    explicit Bm25Index(const QStringList& pageTexts);

    int pageCount() const { return int(pages_.size()); }
    double idf(const QString& term) const;
    // One score per page (index 0 is the first page).
    QList<double> scores(const QString& question) const;

private:
    QList<QHash<QString, int>> pages_; // term frequencies per page
    QList<int> lengths_;               // terms per page
    QHash<QString, int> pagesWith_;    // n(t)
    double averageLength_ = 0;
};

// True for a table-of-contents page: a "Contents" heading with at least 3 lines ending in page
// numbers, or at least 6 such lines that make most of the page and mostly ascend.
bool looksLikeContents(const QString& pageText, int pageCount);

// Why a page ranks where it does (said in the question's note).
enum class PageReason {
    Pinned,    // the user pinned it
    Cited,     // cited earlier in the chat
    BestMatch, // the best match for the question, or a page next to it that continues it
    Contents,  // a table of contents
    Match,     // another page with the question's terms
    Other,     // none of the question's terms
};

// A page of one of several documents (document: index in the list; page: 1-based).
struct PageRef {
    int document = 0;
    int page = 0;
    PageReason reason = PageReason::Other; // not compared
    friend bool operator==(const PageRef& a, const PageRef& b) {
        return a.document == b.document && a.page == b.page;
    }
};

struct RankingInput {
    QList<QStringList> pageTexts;  // per document
    QList<QList<int>> pinnedPages; // per document, 1-based (may be shorter than pageTexts)
    QList<QList<int>> citedPages;  // per document, 1-based, cited earlier in the chat
    QString question;
};

// The most pages the best match's run holds: a topic rarely spans more, and a tight budget is
// better spent on a second topic than on a seventh page of the first.
inline constexpr int kBestRunPages = 6;
// A page next to the best match continues it when its score is at least this share of the
// best page's.
inline constexpr double kRunScoreShare = 0.25;

// Every page of every document, best first: pinned pages, then cited pages, then the best BM25
// match with the pages around it that continue it (kRunScoreShare; after it first, then
// before it; at most kBestRunPages in all: a topic runs over several pages, and a prompt with
// room for few pages holds it whole rather than a contents page and one page of it), then
// contents pages (of the first tenth of a document), then by BM25 score over all pages of all
// documents together; ties in document and page order.
QList<PageRef> rankPages(const RankingInput& input);

} // namespace folio::ui
