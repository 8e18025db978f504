#include "core/figures/number_roles.h"

#include "core/figures/text.h"

#include <array>
#include <string>

namespace folio::figures {

namespace {

using Text = std::u32string_view;

bool reference_word_before(Text t, size_t s) {
    size_t k = s;
    while (k > 0 && (is_horizontal_space(t[k - 1]) || t[k - 1] == U'.' || t[k - 1] == U'#'))
        --k;
    if (k < s && t[s - 1] == U'#')
        return true;
    static constexpr std::array<std::u32string_view, 6> chinese = {U"第", U"附注", U"注",
                                                                   U"表", U"图",   U"条"};
    for (std::u32string_view w : chinese)
        if (k >= w.size() && t.substr(k - w.size(), w.size()) == w && k == s)
            return true;
    size_t b = k;
    while (b > 0 && is_ascii_letter(t[b - 1]))
        --b;
    if (b == k || (b > 0 && is_word_letter(t[b - 1])))
        return false;
    std::u32string word;
    for (size_t i = b; i < k; ++i)
        word.push_back(ascii_lower(t[i]));
    static constexpr std::array<std::u32string_view, 33> words = {
        U"note",    U"notes",   U"table",     U"tables",  U"figure",   U"figures",  U"fig",
        U"chart",   U"section", U"chapter",   U"page",    U"pages",    U"p",        U"pp",
        U"item",    U"items",   U"step",      U"part",    U"appendix", U"schedule", U"exhibit",
        U"article", U"clause",  U"paragraph", U"para",    U"no",       U"number",   U"rank",
        U"tier",    U"phase",   U"level",     U"version", U"annex"};
    for (std::u32string_view w : words)
        if (word == w)
            return true;
    return false;
}

// Only spaces and Markdown's list / quote / heading marks between the line's start and `s`.

} // namespace

bool at_line_start(std::u32string_view t, size_t s) {
    size_t k = s;
    while (k > 0 && t[k - 1] != U'\n') {
        const char32_t c = t[k - 1];
        if (!(is_horizontal_space(c) || c == U'-' || c == U'*' || c == U'>' || c == U'#' ||
              c == U'+' || c == U'|'))
            return false;
        --k;
    }
    return true;
}

NumberRole role_of(std::u32string_view t, const NumberToken& tok, size_t digits_start,
                   size_t core_end, bool paren_open, bool whole_integer) {
    const size_t s = tok.start;
    // Part of a name: letters (not a currency) right before or after, "COVID-19", "10:30".
    if (s > 0 && is_word_letter(t[s - 1]))
        return NumberRole::NamePart;
    if (s > 1 && (t[s - 1] == U'-' || t[s - 1] == U'_' || t[s - 1] == U'/') &&
        is_word_letter(t[s - 2]))
        return NumberRole::NamePart;
    if (tok.end < t.size() && (is_word_letter(t[tok.end]) || t[tok.end] == U'_'))
        return NumberRole::NamePart;
    if ((core_end < t.size() && t[core_end] == U':' && core_end + 1 < t.size() &&
         is_digit(t[core_end + 1])) ||
        (digits_start > 0 && t[digits_start - 1] == U':' && digits_start > 1 &&
         is_digit(t[digits_start - 2])))
        return NumberRole::NamePart;
    if (reference_word_before(t, s))
        return NumberRole::Reference;
    // List markers: "1. ", "2) ", "(3) " opening a line.
    if (whole_integer && tok.first.raw < 1000 && at_line_start(t, s) && paren_open &&
        tok.end < t.size() && is_horizontal_space(t[tok.end]))
        return NumberRole::ListMarker;
    if (whole_integer && paren_open && tok.end + 1 < t.size() && is_horizontal_space(t[tok.end]) &&
        is_word_letter(t[tok.end + 1]))
        return NumberRole::ListMarker;
    if (whole_integer && tok.first.raw < 1000 && at_line_start(t, s)) {
        const size_t e = tok.end;
        const bool space_after = e + 1 < t.size() && is_horizontal_space(t[e + 1]);
        if (!paren_open && e < t.size() && (t[e] == U'.' || t[e] == U')') &&
            (space_after || e + 1 == t.size()))
            return NumberRole::ListMarker;
    }
    // Dates in pieces: 12月, 31日 (not 12个月).
    if (core_end < t.size() &&
        (t[core_end] == U'月' || t[core_end] == U'日' || t[core_end] == U'号') && whole_integer)
        return NumberRole::MonthOfYear;
    if (core_end < t.size() && t[core_end] == U'年' && whole_integer)
        return NumberRole::Year;
    if (whole_integer && tok.kind == NumberKind::Amount && !tok.currency && !tok.scaled &&
        !tok.explicit_sign && tok.first.raw >= 1900 && tok.first.raw <= 2100 &&
        core_end - digits_start == 4)
        return NumberRole::Year;
    return NumberRole::Claim;
}

} // namespace folio::figures
