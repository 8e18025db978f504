#include "core/figures/citations.h"

#include "core/figures/text.h"

#include <optional>

namespace folio::figures {

namespace {

using Text = std::u32string_view;

constexpr int kMaxPagesPerCitation = 1000;

bool is_ws(char32_t c) {
    return is_space(c);
}

size_t skip_ws(Text t, size_t i) {
    while (i < t.size() && is_ws(t[i]))
        ++i;
    return i;
}

std::optional<int> digits(Text t, size_t& i, size_t max) {
    size_t k = i;
    int v = 0;
    while (k < t.size() && is_digit(t[k]) && k - i < max + 1) {
        v = v * 10 + int(t[k] - U'0');
        ++k;
    }
    if (k == i || k - i > max || (k < t.size() && is_digit(t[k])))
        return std::nullopt;
    i = k;
    return v;
}

bool is_range_dash(char32_t c) {
    return c == U'-' || c == 0x2013 || c == 0x2014;
}

// "p." / "pp." / "page" / "pages", the list, "]". Returns the position after "]".
std::optional<size_t> pages_part(Text t, size_t i, std::vector<std::pair<int, int>>& items,
                                 std::vector<std::pair<size_t, size_t>>& spans) {
    auto list_from = [&](size_t k) -> std::optional<size_t> {
        items.clear();
        spans.clear();
        k = skip_ws(t, k);
        while (true) {
            const size_t item_start = k;
            const auto first = digits(t, k, 5);
            if (!first)
                return std::nullopt;
            int last = *first;
            size_t m = skip_ws(t, k);
            if (m < t.size() && is_range_dash(t[m])) {
                size_t n = skip_ws(t, m + 1);
                if (const auto second = digits(t, n, 5)) {
                    last = *second;
                    k = n;
                }
            }
            items.emplace_back(*first, last);
            spans.emplace_back(item_start, k - item_start);
            m = skip_ws(t, k);
            if (m < t.size() && t[m] == U',') {
                size_t n = skip_ws(t, m + 1);
                if (n < t.size() && is_digit(t[n])) {
                    k = n;
                    continue;
                }
            }
            m = skip_ws(t, k);
            if (m < t.size() && t[m] == U']')
                return m + 1;
            return std::nullopt;
        }
    };
    // pages? first (the regex tries p / pp before, but "page" only fits as page or pages).
    for (Text word : {Text(U"pages"), Text(U"page")})
        if (starts_with_ci(t, i, word))
            if (auto end = list_from(i + word.size()))
                return end;
    for (Text word : {Text(U"pp"), Text(U"p")})
        if (starts_with_ci(t, i, word)) {
            size_t k = i + word.size();
            if (k < t.size() && t[k] == U'.')
                ++k;
            if (auto end = list_from(k))
                return end;
        }
    return std::nullopt;
}

std::string normalized_name(std::string_view name) {
    std::u32string s = decode_utf8(name);
    auto strip = [](char32_t c) {
        return is_space(c) || c == U'"' || c == U'\'' || c == U'*' || c == U'_' || c == U'“' ||
               c == U'”' || c == U'‘' || c == U'’';
    };
    size_t b = 0, e = s.size();
    while (b < e && strip(s[b]))
        ++b;
    while (e > b && strip(s[e - 1]))
        --e;
    std::u32string out;
    for (size_t i = b; i < e; ++i)
        out.push_back(simple_lower(s[i]));
    return encode_utf8(out);
}

int document_named(std::string_view name, const std::vector<CitationTarget>& documents) {
    const std::string wanted = normalized_name(name);
    if (wanted.empty())
        return -1;
    for (size_t i = 0; i < documents.size(); ++i) {
        const CitationTarget& d = documents[i];
        std::string base = d.file_name;
        if (const size_t slash = base.find_last_of('/'); slash != std::string::npos)
            base = base.substr(slash + 1);
        const size_t dot = base.find_last_of('.');
        const std::string stem = dot == std::string::npos ? base : base.substr(0, dot);
        if (normalized_name(d.title) == wanted ||
            (!base.empty() && normalized_name(base) == wanted) ||
            (!stem.empty() && normalized_name(stem) == wanted))
            return int(i);
    }
    return -1;
}

bool inside(const std::vector<std::pair<size_t, size_t>>& ranges, size_t pos) {
    for (const auto& [b, e] : ranges)
        if (pos >= b && pos < e)
            return true;
    return false;
}

} // namespace

std::vector<int> Citation::pages() const {
    std::vector<int> out;
    for (const auto& [first, last] : items)
        for (int p = first; p <= last && out.size() < size_t(kMaxPagesPerCitation); ++p)
            out.push_back(p);
    return out;
}

std::vector<std::pair<size_t, size_t>> code_ranges(Text text) {
    std::vector<std::pair<size_t, size_t>> ranges;
    const size_t n = text.size();
    size_t i = 0;
    constexpr size_t kNone = size_t(-1);
    size_t fence_start = kNone;
    std::u32string fence;
    bool line_start = true;
    while (i < n) {
        if (line_start) {
            size_t j = i;
            while (j < n && j - i < 3 && text[j] == U' ')
                ++j;
            const char32_t c = j < n ? text[j] : 0;
            if (c == U'`' || c == U'~') {
                size_t k = j;
                while (k < n && text[k] == c)
                    ++k;
                if (k - j >= 3) {
                    const std::u32string marker(text.substr(j, k - j));
                    if (fence_start == kNone) {
                        fence_start = i;
                        fence = marker;
                    } else if (marker.starts_with(fence)) {
                        const size_t end = text.find(U'\n', k);
                        const size_t stop = end == Text::npos ? n : end;
                        ranges.emplace_back(fence_start, stop);
                        fence_start = kNone;
                        i = stop;
                        continue;
                    }
                }
            }
        }
        if (fence_start == kNone && text[i] == U'`') {
            size_t k = i;
            while (k < n && text[k] == U'`')
                ++k;
            const std::u32string run(text.substr(i, k - i));
            size_t close = text.find(run, k);
            while (close != Text::npos && close + run.size() < n &&
                   text[close + run.size()] == U'`')
                close = text.find(run, close + run.size() + 1);
            if (close != Text::npos) {
                ranges.emplace_back(i, close + run.size());
                i = close + run.size();
            } else {
                i = k;
            }
            line_start = false;
            continue;
        }
        line_start = text[i] == U'\n';
        ++i;
    }
    if (fence_start != kNone)
        ranges.emplace_back(fence_start, n);
    return ranges;
}

std::vector<Citation> find_citations(Text text, const std::vector<CitationTarget>& documents) {
    std::vector<Citation> out;
    const auto code = code_ranges(text);
    int previous = -1;
    size_t i = 0;
    while ((i = text.find(U'[', i)) != Text::npos) {
        if (inside(code, i)) {
            ++i;
            continue;
        }
        Citation c;
        std::optional<size_t> end;
        int doc_number = 0;
        std::string name;
        const size_t a = skip_ws(text, i + 1);
        // "doc N" / "document N"
        for (Text word : {Text(U"document"), Text(U"doc")}) {
            if (end || !starts_with_ci(text, a, word))
                continue;
            size_t k = a + word.size();
            if (k < text.size() && text[k] == U'.')
                ++k;
            k = skip_ws(text, k);
            const auto n = digits(text, k, 3);
            if (!n)
                continue;
            k = skip_ws(text, k);
            if (k < text.size() && (text[k] == U',' || text[k] == U':' || text[k] == U';'))
                ++k;
            k = skip_ws(text, k);
            if ((end = pages_part(text, k, c.items, c.item_spans)))
                doc_number = *n;
        }
        // a title or file name, then a comma
        if (!end) {
            size_t k = a;
            while (k < text.size() && k - a < 160 && text[k] != U'[' && text[k] != U']' &&
                   text[k] != U'\n' && text[k] != U',' && text[k] != U'`')
                ++k;
            if (k > a && k < text.size() && text[k] == U',') {
                const size_t p = skip_ws(text, k + 1);
                if ((end = pages_part(text, p, c.items, c.item_spans))) {
                    size_t e = k;
                    while (e > a && is_ws(text[e - 1]))
                        --e;
                    name = encode_utf8(text.substr(a, e - a));
                }
            }
        }
        if (!end)
            end = pages_part(text, a, c.items, c.item_spans);
        if (!end) {
            ++i;
            continue;
        }
        c.start = i;
        c.length = *end - i;
        if (!documents.empty()) {
            if (doc_number > 0) {
                c.document = doc_number <= int(documents.size()) ? doc_number - 1 : -1;
            } else if (!name.empty()) {
                c.document = document_named(name, documents);
            } else if (previous >= 0) {
                c.document = previous;
            } else if (documents.size() == 1) {
                c.document = 0;
            } else {
                const int page = c.items.empty() ? 0 : c.items.front().first;
                int only = -1, count = 0;
                for (size_t d = 0; d < documents.size(); ++d)
                    if (documents[d].page_count > 0 && page >= 1 &&
                        page <= documents[d].page_count) {
                        only = int(d);
                        ++count;
                    }
                c.document = count == 1 ? only : -1;
            }
            if (c.document >= 0)
                previous = c.document;
        } else if (!name.empty()) {
            i = *end;
            continue; // "[see, p. 3]" without documents to compare with
        }
        out.push_back(c);
        i = *end;
    }
    return out;
}

} // namespace folio::figures
