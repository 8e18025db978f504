#include "core/pipeline/page_ranking.h"

#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <cmath>

namespace folio::ui {

namespace {

// Han ideographs (with extensions and compatibility forms), hiragana and katakana.
bool isIdeograph(char32_t c) {
    return (c >= 0x3040 && c <= 0x30ff) || (c >= 0x3400 && c <= 0x4dbf) ||
           (c >= 0x4e00 && c <= 0x9fff) || (c >= 0xf900 && c <= 0xfaff) ||
           (c >= 0x20000 && c <= 0x2fa1f);
}

} // namespace

QStringList rankingTerms(const QString& text) {
    QStringList terms;
    QString word;
    auto flush = [&] {
        if (!word.isEmpty())
            terms << word.toLower();
        word.clear();
    };
    for (char32_t c : text.toUcs4()) {
        if (isIdeograph(c)) {
            flush();
            terms << QString::fromUcs4(&c, 1);
        } else if (QChar::isLetterOrNumber(c) || QChar::isMark(c)) {
            word += QString::fromUcs4(&c, 1);
        } else {
            flush();
        }
    }
    flush();
    return terms;
}

Bm25Index::Bm25Index(const QStringList& pageTexts) {
    qint64 total = 0;
    pages_.reserve(pageTexts.size());
    for (const QString& text : pageTexts) {
        const QStringList terms = rankingTerms(text);
        QHash<QString, int> tf;
        for (const QString& t : terms)
            ++tf[t];
        for (auto it = tf.cbegin(); it != tf.cend(); ++it)
            ++pagesWith_[it.key()];
        pages_.append(tf);
        lengths_.append(int(terms.size()));
        total += terms.size();
    }
    averageLength_ = pages_.isEmpty() ? 0 : double(total) / double(pages_.size());
}

double Bm25Index::idf(const QString& term) const {
    const double n = pagesWith_.value(term, 0);
    const double count = double(pages_.size());
    return std::log(1.0 + (count - n + 0.5) / (n + 0.5));
}

QList<double> Bm25Index::scores(const QString& question) const {
    QList<double> out(pages_.size(), 0.0);
    if (averageLength_ <= 0)
        return out;
    const QStringList terms = rankingTerms(question);
    const QSet<QString> distinct(terms.cbegin(), terms.cend());
    for (const QString& t : distinct) {
        if (!pagesWith_.contains(t))
            continue;
        const double w = idf(t);
        for (qsizetype p = 0; p < pages_.size(); ++p) {
            const double tf = pages_[p].value(t, 0);
            if (tf == 0)
                continue;
            const double norm = kK1 * (1.0 - kB + kB * double(lengths_[p]) / averageLength_);
            out[p] += w * tf * (kK1 + 1.0) / (tf + norm);
        }
    }
    return out;
}

bool looksLikeContents(const QString& pageText, int pageCount) {
    // A title, optional leader dots, then a page number at the end of the line.
    static const QRegularExpression entry(QStringLiteral("\\D[\\s.·…]+(\\d{1,5})\\s*$"));
    static const QRegularExpression heading(QStringLiteral("^\\s*(table of )?contents\\s*$"),
                                            QRegularExpression::CaseInsensitiveOption);
    int lines = 0, entries = 0, ascending = 0, last = 0;
    bool hasHeading = false;
    for (const QString& line : pageText.split(QLatin1Char('\n'))) {
        if (line.trimmed().isEmpty())
            continue;
        ++lines;
        if (heading.match(line).hasMatch())
            hasHeading = true;
        const QRegularExpressionMatch m = entry.match(line);
        if (!m.hasMatch())
            continue;
        const int page = m.captured(1).toInt();
        if (page < 1 || page > pageCount)
            continue;
        ++entries;
        if (page >= last)
            ++ascending;
        last = page;
    }
    if (hasHeading && entries >= 3)
        return true;
    return entries >= 6 && entries * 2 >= lines && ascending * 5 >= entries * 4;
}

QList<PageRef> rankPages(const RankingInput& input) {
    // All pages of all documents form one corpus, so scores compare across documents.
    QStringList corpus;
    QList<PageRef> refs;
    for (int d = 0; d < input.pageTexts.size(); ++d)
        for (int p = 0; p < input.pageTexts[d].size(); ++p) {
            corpus << input.pageTexts[d][p];
            refs.append({d, p + 1});
        }
    const QList<double> bm25 = Bm25Index(corpus).scores(input.question);
    auto listed = [](const QList<QList<int>>& lists, const PageRef& r) {
        return r.document < lists.size() && lists[r.document].contains(r.page);
    };
    // The best match and the pages next to it that continue it (same document, with terms).
    // (A contents page names every topic in few words: it is not the best match of any.)
    QList<bool> contents(refs.size());
    for (int i = 0; i < refs.size(); ++i) {
        const PageRef& r = refs[i];
        const int pages = int(input.pageTexts[r.document].size());
        contents[i] = r.page <= qMax(3, pages / 10) &&
                      looksLikeContents(input.pageTexts[r.document][r.page - 1], pages);
    }
    QHash<int, int> run; // index in refs -> place in the run
    int best = -1;
    for (int i = 0; i < refs.size(); ++i)
        if (!contents[i] && bm25[i] > 0 && (best < 0 || bm25[i] > bm25[best]))
            best = i;
    if (best >= 0) {
        run.insert(best, 0);
        // A page continues the topic when it scores a good part of the best page's score: a
        // page that only shares common words ("how", "were") scores a small fraction of it.
        auto continues = [&](int i) {
            return i >= 0 && i < refs.size() && refs[i].document == refs[best].document &&
                   !contents[i] && bm25[i] >= kRunScoreShare * bm25[best];
        };
        for (int i = best + 1; continues(i) && run.size() < kBestRunPages; ++i)
            run.insert(i, int(run.size()));
        for (int i = best - 1; continues(i) && run.size() < kBestRunPages; --i)
            run.insert(i, int(run.size()));
    }
    struct Ranked {
        PageReason reason; // in the order of the enum: the tier
        double score;
        int order;
    };
    QList<Ranked> ranked;
    ranked.reserve(refs.size());
    for (int i = 0; i < refs.size(); ++i) {
        const PageRef& r = refs[i];
        PageReason reason = bm25[i] > 0 ? PageReason::Match : PageReason::Other;
        double score = bm25[i];
        if (listed(input.pinnedPages, r))
            reason = PageReason::Pinned;
        else if (listed(input.citedPages, r))
            reason = PageReason::Cited;
        else if (run.contains(i)) {
            reason = PageReason::BestMatch;
            score = -run.value(i); // in the run's order
        } else if (contents[i])
            reason = PageReason::Contents;
        ranked.append({reason, score, i});
    }
    std::stable_sort(ranked.begin(), ranked.end(), [](const Ranked& a, const Ranked& b) {
        if (a.reason != b.reason)
            return a.reason < b.reason;
        if (a.score != b.score)
            return a.score > b.score;
        return a.order < b.order;
    });
    QList<PageRef> out;
    out.reserve(ranked.size());
    for (const Ranked& r : ranked) {
        PageRef ref = refs[r.order];
        ref.reason = r.reason;
        out.append(ref);
    }
    return out;
}

} // namespace folio::ui
