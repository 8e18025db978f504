#include "core/figures/table_pages.h"

#include "core/figures/citations.h"
#include "core/figures/claims.h"
#include "core/figures/match.h"
#include "core/figures/page_unit.h"
#include "core/figures/text.h"

#include <algorithm>
#include <cstdlib>
#include <optional>

namespace folio::figures {

namespace {

std::u32string lowered(std::u32string_view s) {
    std::u32string out(s);
    for (char32_t& c : out)
        if (c >= U'A' && c <= U'Z')
            c = c - U'A' + U'a';
    return out;
}

std::u32string trimmed(std::u32string_view s) {
    size_t b = 0, e = s.size();
    while (b < e && (s[b] == U' ' || s[b] == U'\t'))
        ++b;
    while (e > b && (s[e - 1] == U' ' || s[e - 1] == U'\t'))
        --e;
    return std::u32string(s.substr(b, e - b));
}

bool starts_with(std::u32string_view s, std::u32string_view prefix) {
    return s.substr(0, prefix.size()) == prefix;
}

bool is_source_header(const std::string& header) {
    const std::u32string h = lowered(trimmed(decode_utf8(header)));
    if (h.empty())
        return false;
    if (h == U"p." || h == U"pp." || h == U"p" || h == U"页" || h == U"页数")
        return true;
    if (starts_with(h, U"page") || starts_with(h, U"source"))
        return true;
    return h.find(U"页码") != std::u32string::npos || h.find(U"来源") != std::u32string::npos ||
           h.find(U"出处") != std::u32string::npos;
}

// Pages are read once, when first asked for.
class Pages {
public:
    explicit Pages(const SourceDocument& doc) : doc_(doc), read_(doc.pages.size()) {}
    int count() const { return int(doc_.pages.size()); }
    const PageNumbers& page(int number) { // 1-based
        std::optional<PageNumbers>& p = read_[size_t(number - 1)];
        if (!p)
            p = read_page(doc_.pages[size_t(number - 1)]);
        return *p;
    }

private:
    const SourceDocument& doc_;
    std::vector<std::optional<PageNumbers>> read_;
};

// The claim as written, then (an amount with no scale word of its own) times each unit its
// column's header states.
std::vector<NumberToken> readings(const NumberToken& claim,
                                  const std::vector<long double>& header_units) {
    std::vector<NumberToken> out{claim};
    if (claim.kind != NumberKind::Amount || claim.scaled)
        return out;
    for (long double f : header_units) {
        NumberToken t = claim;
        t.scaled = true;
        for (NumberValue* v : {&t.first, &t.second}) {
            v->value *= f;
            v->unit *= f;
        }
        out.push_back(t);
    }
    return out;
}

struct Hit {
    std::string line;
    std::string match;
};

std::optional<Hit> look_on(Pages& doc, int page, const std::vector<NumberToken>& claim) {
    if (page < 1 || page > doc.count())
        return std::nullopt;
    const PageNumbers& p = doc.page(page);
    for (const NumberToken& reading : claim) {
        const PageMatch m = find_on_page(reading, p);
        if (m.found)
            return Hit{line_of(p, m.token), token_text(p, m.token)};
    }
    return std::nullopt;
}

FigureResult check_claim(const AnswerFigure& f, const std::vector<NumberToken>& claim, Pages& doc,
                         const std::vector<int>& pages) {
    FigureResult r;
    r.figure = f.text;
    r.offset = f.offset;
    r.length = f.length;
    r.document = 0;
    r.page = pages.empty() ? 0 : pages.front();
    r.state = FigureState::NotFound;
    for (int page : pages) {
        if (auto hit = look_on(doc, page, claim)) {
            r.state = FigureState::Verified;
            r.page = page;
            r.found_page = page;
            r.line = hit->line;
            r.match = hit->match;
            return r;
        }
    }
    // Elsewhere in the document: the nearest page to the first one the table came from.
    std::vector<int> order;
    for (int p = 1; p <= doc.count(); ++p)
        if (std::find(pages.begin(), pages.end(), p) == pages.end())
            order.push_back(p);
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return std::abs(a - r.page) < std::abs(b - r.page); });
    for (int p : order) {
        if (auto hit = look_on(doc, p, claim)) {
            r.state = FigureState::OtherPage;
            r.found_page = p;
            r.line = hit->line;
            r.match = hit->match;
            return r;
        }
    }
    return r;
}

} // namespace

int source_column(const std::vector<std::string>& columns) {
    for (size_t c = 0; c < columns.size(); ++c)
        if (is_source_header(columns[c]))
            return int(c);
    return -1;
}

std::vector<int> pages_of_source_cell(std::string_view cell) {
    const std::u32string t = normalize_for_numbers(decode_utf8(cell));
    std::vector<int> pages;
    auto number_at = [&](size_t& i) {
        long n = 0;
        while (i < t.size() && t[i] >= U'0' && t[i] <= U'9') {
            n = std::min(n * 10 + long(t[i] - U'0'), 1000000L);
            ++i;
        }
        return int(n);
    };
    size_t i = 0;
    while (i < t.size()) {
        if (t[i] < U'0' || t[i] > U'9') {
            ++i;
            continue;
        }
        const int first = number_at(i);
        int last = first;
        size_t j = i;
        while (j < t.size() && t[j] == U' ')
            ++j;
        if (j < t.size() && (t[j] == U'-' || t[j] == U'–' || t[j] == U'—' || t[j] == U'~')) {
            ++j;
            while (j < t.size() && t[j] == U' ')
                ++j;
            if (j < t.size() && t[j] >= U'0' && t[j] <= U'9') {
                last = number_at(j);
                i = j;
            }
        }
        if (first < 1 || last < first || last - first >= 1000)
            last = first;
        for (int p = first; p <= last && p >= 1; ++p)
            pages.push_back(p);
    }
    std::sort(pages.begin(), pages.end());
    pages.erase(std::unique(pages.begin(), pages.end()), pages.end());
    if (pages.size() > 1000)
        pages.resize(1000);
    return pages;
}

std::vector<CellFigure> check_table_cells(const ResultTable& table, const SourceDocument& document,
                                          const std::vector<int>& pages) {
    const int source = source_column(table.columns);
    std::vector<std::vector<long double>> units(table.columns.size());
    for (size_t c = 0; c < table.columns.size(); ++c)
        units[c] = page_unit_factors(normalize_for_numbers(decode_utf8(table.columns[c])));
    Pages doc(document);
    const std::vector<CitationTarget> targets{
        {document.title, document.file_name, int(document.pages.size())}};
    std::vector<CellFigure> out;
    for (size_t r = 0; r < table.rows.size(); ++r) {
        const std::vector<std::string>& row = table.rows[r];
        std::vector<int> rowPages;
        if (source >= 0 && size_t(source) < row.size())
            rowPages = pages_of_source_cell(row[size_t(source)]);
        if (rowPages.empty())
            rowPages = pages;
        for (size_t c = 0; c < row.size(); ++c) {
            if (int(c) == source)
                continue;
            // A cell's own citation ("603 [p. 6]") names its pages.
            std::vector<int> cellPages;
            for (const Citation& citation : find_citations(decode_utf8(row[c]), targets))
                for (int p : citation.pages())
                    cellPages.push_back(p);
            for (const AnswerFigure& f : claims_in(row[c])) {
                const std::vector<NumberToken> claim =
                    readings(f.number, c < units.size() ? units[c] : std::vector<long double>{});
                out.push_back(
                    {r, c, check_claim(f, claim, doc, cellPages.empty() ? rowPages : cellPages)});
            }
        }
    }
    return out;
}

} // namespace folio::figures
