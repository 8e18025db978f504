#include "core/chat/citations.h"

#include "core/figures/citations.h"

#include <QRegularExpression>

namespace folio::ui {

namespace {

constexpr int kMaxPagesPerCitation = 1000;

bool hasPage(const CitationDocument& d, int page) {
    return page >= 1 && (d.pageCount <= 0 || page <= d.pageCount);
}

// The UTF-16 index of each code point of `text`, and one past the end.
QList<qsizetype> utf16Offsets(const QString& text) {
    QList<qsizetype> at;
    at.reserve(text.size() + 1);
    for (qsizetype i = 0; i < text.size(); ++i) {
        at.append(i);
        if (text.at(i).isHighSurrogate() && i + 1 < text.size() && text.at(i + 1).isLowSurrogate())
            ++i;
    }
    at.append(text.size());
    return at;
}

// A citation with the spans of its items in UTF-16 units (linkCitations links each item).
struct FoundCitation {
    Citation citation;
    QList<QPair<qsizetype, qsizetype>> itemSpans; // start, length
};

// The grammar is read once, by folio_figures (core/figures/citations.h); this is its Qt face.
QList<FoundCitation> find(const QString& text, const QList<CitationDocument>& documents) {
    std::vector<figures::CitationTarget> targets;
    targets.reserve(size_t(documents.size()));
    for (const CitationDocument& d : documents)
        targets.push_back({d.title.toStdString(), d.fileName.toStdString(), d.pageCount});
    const QList<qsizetype> at = utf16Offsets(text);
    QList<FoundCitation> out;
    for (const figures::Citation& c : figures::find_citations(text.toStdU32String(), targets)) {
        FoundCitation f;
        f.citation.start = at[qsizetype(c.start)];
        f.citation.length = at[qsizetype(c.start + c.length)] - f.citation.start;
        f.citation.document = c.document;
        for (const auto& [first, last] : c.items)
            f.citation.items.append({first, last});
        for (const auto& [b, n] : c.item_spans)
            f.itemSpans.append({at[qsizetype(b)], at[qsizetype(b + n)] - at[qsizetype(b)]});
        out.append(f);
    }
    return out;
}

} // namespace

QList<int> Citation::pages() const {
    QList<int> out;
    for (const auto& item : items)
        for (int p = item.first; p <= item.second && out.size() < kMaxPagesPerCitation; ++p)
            out << p;
    return out;
}

QList<Citation> findCitations(const QString& text, const QList<CitationDocument>& documents) {
    QList<Citation> out;
    for (const FoundCitation& f : find(text, documents))
        out.append(f.citation);
    return out;
}

QString linkCitations(const QString& markdown, const QList<CitationDocument>& documents,
                      const std::function<QString(int, int)>& url) {
    const QList<FoundCitation> found = find(markdown, documents);
    QString out;
    out.reserve(markdown.size() + 64 * found.size());
    qsizetype last = 0;
    for (const FoundCitation& f : found) {
        const Citation& c = f.citation;
        const qsizetype end = c.start + c.length;
        // Leave citations that are already link text ("[p. 3](...)") alone.
        if (end < markdown.size() && markdown.at(end) == QLatin1Char('('))
            continue;
        if (!documents.isEmpty() && c.document < 0)
            continue;
        auto valid = [&](const QPair<int, int>& item) {
            if (item.first < 1 || item.second < item.first)
                return false;
            if (!documents.isEmpty() && !(hasPage(documents[c.document], item.first) &&
                                          hasPage(documents[c.document], item.second)))
                return false;
            return !url(c.document, item.first).isEmpty(); // "": no link for it
        };
        int linked = 0;
        for (const auto& item : c.items)
            linked += valid(item) ? 1 : 0;
        if (linked == 0)
            continue;
        out += QStringView(markdown).mid(last, c.start - last);
        if (c.items.size() == 1) {
            const QString inner = markdown.mid(c.start + 1, c.length - 2);
            out += QStringLiteral("[\\[%1\\]](%2)").arg(inner, url(c.document, c.items[0].first));
        } else {
            // Each page or range of the list is its own link.
            out += QStringLiteral("\\[");
            qsizetype pos = c.start + 1;
            for (qsizetype k = 0; k < c.items.size(); ++k) {
                const auto [itemStart, itemLength] = f.itemSpans[k];
                out += QStringView(markdown).mid(pos, itemStart - pos);
                const QString written = markdown.mid(itemStart, itemLength);
                out +=
                    valid(c.items[k])
                        ? QStringLiteral("[%1](%2)").arg(written, url(c.document, c.items[k].first))
                        : written;
                pos = itemStart + itemLength;
            }
            out += markdown.mid(pos, end - 1 - pos) + QStringLiteral("\\]");
        }
        last = end;
    }
    out += QStringView(markdown).mid(last);
    return out;
}

QString linkCitations(const QString& markdown, const QString& urlPattern) {
    return linkCitations(markdown, {},
                         [&urlPattern](int, int page) { return urlPattern.arg(page); });
}

QList<int> citedPages(const QString& text) {
    QList<int> pages;
    for (const Citation& c : findCitations(text, {}))
        pages << c.pages();
    return pages;
}

int pageFromCitationUrl(const QString& url) {
    const QString prefix = QString::fromLatin1(kCitationUrlPattern).section(QLatin1Char('%'), 0, 0);
    if (!url.startsWith(prefix))
        return 0;
    bool ok = false;
    const int page = url.mid(prefix.size()).toInt(&ok);
    return ok ? page : 0;
}

CitationTargets resolveCitedDocuments(const QList<CitedDocument>& cited,
                                      const CitationTargets& current) {
    if (cited.isEmpty())
        return current;
    CitationTargets out;
    for (const CitedDocument& c : cited) {
        qsizetype found = -1;
        for (qsizetype i = 0; i < current.documents.size() && found < 0; ++i)
            if (!c.fingerprint.isEmpty() && current.documents[i].fingerprint == c.fingerprint)
                found = i;
        if (found >= 0) {
            out.documents.append(current.documents[found]);
            out.rows.append(current.rows.value(found, -1));
        } else {
            out.documents.append({c.title, QString(), c.pageCount, c.fingerprint});
            out.rows.append(kRemovedDocument);
        }
    }
    return out;
}

QString citationUrl(int document, int page) {
    return QStringLiteral("folio:cite/%1/%2").arg(document).arg(page);
}

bool citationFromUrl(const QString& url, int* document, int* page) {
    static const QRegularExpression re(QStringLiteral(R"(^folio:cite/(-?\d+)/(\d+)$)"));
    const QRegularExpressionMatch m = re.match(url);
    if (!m.hasMatch())
        return false;
    *document = m.captured(1).toInt();
    *page = m.captured(2).toInt();
    return true;
}

} // namespace folio::ui
