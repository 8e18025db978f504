#include "core/figures/match.h"

#include "core/figures/page_unit.h"
#include "core/figures/text.h"

#include <cmath>

namespace folio::figures {

namespace {

// "3,183.\n6", "1,234,\n567", "1,234\n,567", "3,183\n.6": the break (and the spaces around it)
// removed; other line breaks stay.
std::u32string join_broken_numbers(std::u32string_view t) {
    std::u32string out;
    out.reserve(t.size());
    for (size_t i = 0; i < t.size(); ++i) {
        if (t[i] != U'\n') {
            out.push_back(t[i]);
            continue;
        }
        size_t a = out.size();
        while (a > 0 && is_horizontal_space(out[a - 1]))
            --a;
        size_t b = i + 1;
        while (b < t.size() && is_horizontal_space(t[b]))
            ++b;
        const bool sep_before = a >= 2 && (out[a - 1] == U',' || out[a - 1] == U'.') &&
                                is_digit(out[a - 2]) && b < t.size() && is_digit(t[b]);
        const bool sep_after = a >= 1 && is_digit(out[a - 1]) && b + 1 < t.size() &&
                               (t[b] == U',' || t[b] == U'.') && is_digit(t[b + 1]);
        if (sep_before || sep_after) {
            out.resize(a);
            i = b - 1;
            continue;
        }
        out.push_back(t[i]);
    }
    return out;
}

bool close_to(const NumberValue& claim, bool explicit_sign, long double candidate) {
    const long double a = explicit_sign ? claim.value : std::fabs(claim.value);
    const long double b = explicit_sign ? candidate : std::fabs(candidate);
    return std::fabs(a - b) <= claim.unit / 2 + 1e-12L * std::fabs(a);
}

bool usable(const NumberToken& p) {
    return p.role != NumberRole::NamePart && p.role != NumberRole::Reference &&
           p.role != NumberRole::ListMarker;
}

bool value_on(const NumberValue& claim, const NumberToken& claim_token, const NumberToken& p,
              const std::vector<long double>& factors) {
    const bool sign = claim_token.explicit_sign;
    auto each_end = [&](auto&& test) { return test(p.first) || (p.range && test(p.second)); };
    switch (claim_token.kind) {
    case NumberKind::Date:
        return false;
    case NumberKind::Percent:
    case NumberKind::Points:
        if (p.kind == NumberKind::Percent || p.kind == NumberKind::Points)
            return each_end([&](const NumberValue& v) { return close_to(claim, sign, v.value); });
        if (p.kind == NumberKind::Amount && !p.scaled && !p.currency)
            return each_end([&](const NumberValue& v) { return close_to(claim, sign, v.raw); });
        return false;
    case NumberKind::Amount:
        if (p.kind != NumberKind::Amount)
            return false;
        return each_end([&](const NumberValue& v) {
            if (close_to(claim, sign, v.value))
                return true;
            // A claim without a scale word compares digits: "4,500" in an answer's table under
            // "$ million" is the page's "$4,500 million".
            if (!claim_token.scaled && close_to(claim, sign, v.raw))
                return true;
            if (p.scaled)
                return false;
            for (long double f : factors)
                if (close_to(claim, sign, v.raw * f))
                    return true;
            return false;
        });
    }
    return false;
}

bool same_date(const NumberToken& c, const NumberToken& p) {
    if (p.kind != NumberKind::Date || p.year != c.year)
        return false;
    auto fits = [&](int pm, int pd) { return pm == c.month && pd == c.day; };
    return fits(p.month, p.day) || (p.day_month_swappable && fits(p.day, p.month)) ||
           (c.day_month_swappable && p.month == c.day && p.day == c.month);
}

} // namespace

PageNumbers read_page(std::string_view page_text) {
    PageNumbers page;
    std::u32string t = normalize_for_numbers(decode_utf8(page_text));
    repair_ocr_digits(t);
    page.text = join_broken_numbers(t);
    page.tokens = read_numbers(page.text, detect_style(page.text));
    page.unit_factors = page_unit_factors(page.text);
    return page;
}

PageMatch find_on_page(const NumberToken& claim, const PageNumbers& page) {
    auto find_value = [&](const NumberValue& v) -> PageMatch {
        for (size_t i = 0; i < page.tokens.size(); ++i) {
            const NumberToken& p = page.tokens[i];
            if (!usable(p))
                continue;
            const bool hit = claim.kind == NumberKind::Date
                                 ? same_date(claim, p)
                                 : value_on(v, claim, p, page.unit_factors);
            if (hit)
                return {true, i};
        }
        return {};
    };
    const PageMatch first = find_value(claim.first);
    if (!first.found || !claim.range)
        return first;
    return find_value(claim.second).found ? first : PageMatch{};
}

std::string token_text(const PageNumbers& page, size_t index) {
    if (index >= page.tokens.size())
        return {};
    const NumberToken& tok = page.tokens[index];
    return encode_utf8(std::u32string_view(page.text).substr(tok.start, tok.end - tok.start));
}

std::string line_of(const PageNumbers& page, size_t index) {
    if (index >= page.tokens.size())
        return {};
    const NumberToken& tok = page.tokens[index];
    size_t b = tok.start;
    while (b > 0 && page.text[b - 1] != U'\n')
        --b;
    size_t e = tok.end;
    while (e < page.text.size() && page.text[e] != U'\n')
        ++e;
    return collapse_spaces(encode_utf8(std::u32string_view(page.text).substr(b, e - b)));
}

} // namespace folio::figures
