#include "core/figures/citation_fix.h"

#include "core/figures/claims.h"
#include "core/figures/text.h"

#include <algorithm>

namespace folio::figures {

namespace {

// Bytes of the first `n` code points of `t`.
size_t bytes_of(std::u32string_view t, size_t n) {
    size_t b = 0;
    for (size_t i = 0; i < n && i < t.size(); ++i)
        b += t[i] < 0x80 ? 1 : t[i] < 0x800 ? 2 : t[i] < 0x10000 ? 3 : 4;
    return b;
}

} // namespace

std::optional<CitationFix> citation_fix(std::string_view answer,
                                        const std::vector<CitationTarget>& documents,
                                        size_t figure_offset, int found_page) {
    if (found_page < 1)
        return std::nullopt;
    const AnswerFigures af = extract_figures(answer, documents);
    const auto f = std::find_if(af.figures.begin(), af.figures.end(),
                                [&](const AnswerFigure& a) { return a.offset == figure_offset; });
    if (f == af.figures.end() || f->citations.empty())
        return std::nullopt;
    const Citation& c = af.citations[f->citations.front()]; // the one check_figures read
    if (c.items.empty() || c.item_spans.size() != c.items.size())
        return std::nullopt;
    for (const auto& [first, last] : c.items)
        if (found_page >= first && found_page <= last)
            return std::nullopt; // already named
    const std::u32string text = decode_utf8(answer);
    std::u32string cited(text.substr(c.start, c.length));
    const std::u32string page = decode_utf8(std::to_string(found_page));
    if (c.items.size() == 1 && c.items[0].first == c.items[0].second) {
        const auto [start, length] = c.item_spans[0];
        cited.replace(start - c.start, length, page);
    } else {
        const auto [start, length] = c.item_spans.back();
        cited.insert(start - c.start + length, U", " + page);
    }
    CitationFix fix;
    fix.offset = bytes_of(text, c.start);
    fix.length = bytes_of(text, c.start + c.length) - fix.offset;
    fix.text = encode_utf8(cited);
    return fix;
}

std::string apply_citation_fix(std::string_view answer, const CitationFix& fix) {
    std::string out(answer);
    if (fix.offset <= out.size() && fix.offset + fix.length <= out.size())
        out.replace(fix.offset, fix.length, fix.text);
    return out;
}

} // namespace folio::figures
