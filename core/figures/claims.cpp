#include "core/figures/claims.h"

#include "core/figures/text.h"

#include <algorithm>
#include <array>

namespace folio::figures {

namespace {

using Text = std::u32string_view;

bool is_abbreviation_before(Text t, size_t dot) {
    size_t b = dot;
    while (b > 0 && (is_word_letter(t[b - 1]) || t[b - 1] == U'.'))
        --b;
    if (b == dot)
        return false;
    std::u32string word;
    for (size_t i = b; i < dot; ++i)
        word.push_back(ascii_lower(t[i]));
    if (word.size() == 1)
        return true; // an initial, "p."
    static constexpr std::array<std::u32string_view, 22> words = {
        U"e.g", U"i.e", U"etc", U"vs",  U"approx", U"no",  U"nos", U"inc", U"ltd", U"co",  U"corp",
        U"mr",  U"ms",  U"dr",  U"fig", U"pp",     U"u.s", U"u.k", U"jan", U"feb", U"aug", U"sept"};
    return std::find(words.begin(), words.end(), word) != words.end();
}

struct Span {
    size_t start, end;
};

// [start, end) of each sentence; `opaque` (citations) are never split and a citation right
// after a sentence's end joins it.
std::vector<Span> sentences(Text t, const std::vector<Citation>& citations) {
    std::vector<Span> out;
    auto citation_at = [&](size_t pos) -> const Citation* {
        for (const Citation& c : citations)
            if (c.start == pos)
                return &c;
        return nullptr;
    };
    size_t start = 0;
    size_t i = 0;
    auto close = [&](size_t end) {
        // Citations (and a full stop) written after the end belong to this sentence.
        size_t k = end;
        while (true) {
            size_t m = k;
            while (m < t.size() && is_horizontal_space(t[m]))
                ++m;
            const Citation* c = m < t.size() ? citation_at(m) : nullptr;
            if (!c)
                break;
            k = m + c->length;
            if (k < t.size() && (t[k] == U'.' || t[k] == U'。'))
                ++k;
        }
        if (k > start)
            out.push_back({start, k});
        start = k;
        return k;
    };
    while (i < t.size()) {
        if (const Citation* c = citation_at(i)) {
            i += c->length;
            continue;
        }
        const char32_t ch = t[i];
        if (ch == U'\n') {
            close(i);
            i = start = std::max(start, i + 1);
            continue;
        }
        const bool cjk_end = ch == U'。' || ch == U'！' || ch == U'？' || ch == U'；';
        const bool end_mark = ch == U'!' || ch == U'?' ||
                              (ch == U'.' &&
                               (i + 1 >= t.size() || is_space(t[i + 1]) || t[i + 1] == U'"' ||
                                t[i + 1] == U')' || t[i + 1] == U'*') &&
                               !is_abbreviation_before(t, i));
        if (cjk_end || end_mark) {
            size_t e = i + 1;
            while (e < t.size() && (t[e] == U'"' || t[e] == U')' || t[e] == U'*' || t[e] == U'”'))
                ++e;
            i = close(e);
            continue;
        }
        ++i;
    }
    close(t.size());
    return out;
}

// Code, citations and link targets become spaces (line breaks kept), so no number is read
// there and positions stay the same.
std::u32string masked(Text t, const std::vector<Citation>& citations) {
    std::u32string m(t);
    auto blank = [&](size_t b, size_t e) {
        for (size_t k = b; k < e && k < m.size(); ++k)
            if (m[k] != U'\n')
                m[k] = U' ';
    };
    for (const auto& [b, e] : code_ranges(t))
        blank(b, e);
    for (const Citation& c : citations)
        blank(c.start, c.start + c.length);
    // Markdown link targets: "](...)".
    for (size_t k = 0; k + 1 < m.size(); ++k)
        if (m[k] == U']' && m[k + 1] == U'(') {
            const size_t close = m.find(U')', k + 2);
            if (close != std::u32string::npos)
                blank(k + 1, close + 1);
        }
    return m;
}

AnswerFigure make_figure(const NumberToken& n, Text original, const std::vector<size_t>& byte_at) {
    AnswerFigure f;
    f.number = n;
    f.text = encode_utf8(original.substr(n.start, n.end - n.start));
    f.offset = byte_at[n.start];
    f.length = byte_at[n.end] - byte_at[n.start];
    return f;
}

std::vector<size_t> byte_offsets(Text t) {
    std::vector<size_t> at(t.size() + 1, 0);
    size_t b = 0;
    for (size_t i = 0; i < t.size(); ++i) {
        at[i] = b;
        const char32_t c = t[i];
        b += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
    }
    at[t.size()] = b;
    return at;
}

} // namespace

AnswerFigures extract_figures(std::string_view answer,
                              const std::vector<CitationTarget>& documents) {
    AnswerFigures out;
    const std::u32string original = decode_utf8(answer);
    const std::u32string norm = normalize_for_numbers(original);
    out.citations = find_citations(norm, documents);
    const std::u32string text = masked(norm, out.citations);
    const std::vector<size_t> byte_at = byte_offsets(original);
    const std::vector<NumberToken> numbers = read_numbers(text, detect_style(text));
    const std::vector<Span> spans = sentences(norm, out.citations);
    for (const NumberToken& n : numbers) {
        if (n.role != NumberRole::Claim)
            continue;
        AnswerFigure f = make_figure(n, original, byte_at);
        const auto span = std::find_if(spans.begin(), spans.end(), [&](const Span& s) {
            return n.start >= s.start && n.start < s.end;
        });
        if (span != spans.end()) {
            // The citation after the figure first, then the one before it, then the others.
            std::vector<size_t> after, before;
            for (size_t c = 0; c < out.citations.size(); ++c) {
                const Citation& cit = out.citations[c];
                if (cit.start < span->start || cit.start >= span->end)
                    continue;
                (cit.start >= n.end ? after : before).push_back(c);
            }
            std::reverse(before.begin(), before.end());
            f.citations = after;
            f.citations.insert(f.citations.end(), before.begin(), before.end());
        }
        out.figures.push_back(std::move(f));
    }
    return out;
}

std::vector<AnswerFigure> claims_in(std::string_view text) {
    const std::u32string original = decode_utf8(text);
    const std::u32string norm = normalize_for_numbers(original);
    const std::vector<size_t> byte_at = byte_offsets(original);
    std::vector<AnswerFigure> out;
    for (const NumberToken& n : read_numbers(norm, detect_style(norm)))
        if (n.role == NumberRole::Claim)
            out.push_back(make_figure(n, original, byte_at));
    return out;
}

} // namespace folio::figures
