#include "core/chat/citations.h"

#include <QFileInfo>
#include <QRegularExpression>

namespace folio::ui {

namespace {

constexpr int kMaxPagesPerCitation = 1000;

// "[", an optional document ("doc 2", "document 2" or a title followed by a comma), "p."/"pp."/
// "page"/"pages", a list of pages and ranges, "]".
const QRegularExpression& citationPattern() {
    static const QRegularExpression re(
        QStringLiteral(
            R"(\[\s*(?:doc(?:ument)?\.?\s*(\d{1,3})\s*[,:;]?\s*|([^\[\]\n,`]{1,160}?)\s*,\s*)?)"
            R"((?:pp?\.?|pages?)\s*()"
            R"(\d{1,5}(?:\s*[-–—]\s*\d{1,5})?(?:\s*,\s*\d{1,5}(?:\s*[-–—]\s*\d{1,5})?)*)"
            R"()\s*\])"),
        QRegularExpression::CaseInsensitiveOption);
    return re;
}

const QRegularExpression& itemPattern() {
    static const QRegularExpression re(QStringLiteral(R"((\d{1,5})(?:\s*[-–—]\s*(\d{1,5}))?)"));
    return re;
}

// The ranges of `text` that are code: ``` / ~~~ fenced blocks and `inline` spans.
QList<QPair<qsizetype, qsizetype>> codeRanges(const QString& text) {
    QList<QPair<qsizetype, qsizetype>> ranges;
    qsizetype i = 0;
    const qsizetype n = text.size();
    qsizetype fenceStart = -1;
    QString fence;
    bool lineStart = true;
    while (i < n) {
        if (lineStart) {
            qsizetype j = i;
            while (j < n && j - i < 3 && text.at(j) == QLatin1Char(' '))
                ++j;
            const QChar c = j < n ? text.at(j) : QChar();
            if (c == QLatin1Char('`') || c == QLatin1Char('~')) {
                qsizetype k = j;
                while (k < n && text.at(k) == c)
                    ++k;
                if (k - j >= 3) {
                    const QString marker = text.mid(j, k - j);
                    if (fenceStart < 0) {
                        fenceStart = i;
                        fence = marker;
                    } else if (marker.startsWith(fence)) {
                        const qsizetype end = text.indexOf(QLatin1Char('\n'), k);
                        const qsizetype stop = end < 0 ? n : end;
                        ranges.append({fenceStart, stop});
                        fenceStart = -1;
                        i = stop;
                        continue;
                    }
                }
            }
        }
        if (fenceStart < 0 && text.at(i) == QLatin1Char('`')) {
            qsizetype k = i;
            while (k < n && text.at(k) == QLatin1Char('`'))
                ++k;
            const QString run = text.mid(i, k - i);
            // The closing run of exactly the same length.
            qsizetype close = text.indexOf(run, k);
            while (close >= 0 && close + run.size() < n && text.at(close + run.size()) == '`')
                close = text.indexOf(run, close + run.size() + 1);
            if (close >= 0) {
                ranges.append({i, close + run.size()});
                i = close + run.size();
                lineStart = false;
                continue;
            }
            i = k;
            lineStart = false;
            continue;
        }
        lineStart = text.at(i) == QLatin1Char('\n');
        ++i;
    }
    if (fenceStart >= 0) // an unclosed fence runs to the end (as Markdown renders it)
        ranges.append({fenceStart, n});
    return ranges;
}

bool inside(const QList<QPair<qsizetype, qsizetype>>& ranges, qsizetype pos) {
    for (const auto& r : ranges)
        if (pos >= r.first && pos < r.second)
            return true;
    return false;
}

QString normalizedName(QString s) {
    s = s.trimmed();
    static const QString strip = QStringLiteral("\"'*_“”‘’");
    while (!s.isEmpty() && strip.contains(s.front()))
        s.remove(0, 1);
    while (!s.isEmpty() && strip.contains(s.back()))
        s.chop(1);
    return s.trimmed().toCaseFolded();
}

int documentNamed(const QString& name, const QList<CitationDocument>& documents) {
    const QString wanted = normalizedName(name);
    if (wanted.isEmpty())
        return -1;
    for (qsizetype i = 0; i < documents.size(); ++i) {
        const CitationDocument& d = documents[i];
        if (normalizedName(d.title) == wanted || normalizedName(d.fileName) == wanted ||
            (!d.fileName.isEmpty() &&
             normalizedName(QFileInfo(d.fileName).completeBaseName()) == wanted))
            return int(i);
    }
    return -1;
}

bool hasPage(const CitationDocument& d, int page) {
    return page >= 1 && (d.pageCount <= 0 || page <= d.pageCount);
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
    const auto code = codeRanges(text);
    int previous = -1; // the document of the citation before
    auto it = citationPattern().globalMatch(text);
    while (it.hasNext()) {
        const QRegularExpressionMatch m = it.next();
        if (inside(code, m.capturedStart()))
            continue;
        Citation c;
        c.start = m.capturedStart();
        c.length = m.capturedLength();
        auto items = itemPattern().globalMatch(m.captured(3));
        while (items.hasNext()) {
            const QRegularExpressionMatch im = items.next();
            const int first = im.captured(1).toInt();
            const int last = im.captured(2).isEmpty() ? first : im.captured(2).toInt();
            c.items.append({first, last});
        }
        if (!documents.isEmpty()) {
            if (!m.captured(1).isEmpty()) {
                const int n = m.captured(1).toInt();
                c.document = n >= 1 && n <= documents.size() ? n - 1 : -1;
            } else if (!m.captured(2).isEmpty()) {
                c.document = documentNamed(m.captured(2), documents);
            } else if (previous >= 0) {
                c.document = previous;
            } else if (documents.size() == 1) {
                c.document = 0;
            } else {
                // Several documents and none named: only unambiguous when one has the page.
                const int page = c.items.value(0).first;
                int only = -1;
                int count = 0;
                for (qsizetype i = 0; i < documents.size(); ++i)
                    if (documents[i].pageCount > 0 && page <= documents[i].pageCount && page >= 1) {
                        only = int(i);
                        ++count;
                    }
                c.document = count == 1 ? only : -1;
            }
            if (c.document >= 0)
                previous = c.document;
        } else if (!m.captured(2).isEmpty()) {
            // "[see, p. 3]" without documents to compare with: not a citation.
            continue;
        }
        out.append(c);
    }
    return out;
}

QString linkCitations(const QString& markdown, const QList<CitationDocument>& documents,
                      const std::function<QString(int, int)>& url) {
    const QList<Citation> citations = findCitations(markdown, documents);
    QString out;
    out.reserve(markdown.size() + 64 * citations.size());
    qsizetype last = 0;
    for (const Citation& c : citations) {
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
        const QString inner = markdown.mid(c.start + 1, c.length - 2);
        if (c.items.size() == 1) {
            out += QStringLiteral("[\\[%1\\]](%2)").arg(inner, url(c.document, c.items[0].first));
        } else {
            // Each page or range of the list is its own link.
            const QRegularExpressionMatch m = citationPattern().match(markdown, c.start);
            const qsizetype listStart = m.capturedStart(3);
            out += QStringLiteral("\\[") + markdown.mid(c.start + 1, listStart - c.start - 1);
            qsizetype pos = listStart;
            auto items = itemPattern().globalMatch(m.captured(3));
            int k = 0;
            while (items.hasNext()) {
                const QRegularExpressionMatch im = items.next();
                const qsizetype itemStart = listStart + im.capturedStart(0);
                out += QStringView(markdown).mid(pos, itemStart - pos);
                const QPair<int, int>& item = c.items[k++];
                out += valid(item) ? QStringLiteral("[%1](%2)")
                                         .arg(im.captured(0), url(c.document, item.first))
                                   : im.captured(0);
                pos = itemStart + im.capturedLength(0);
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
