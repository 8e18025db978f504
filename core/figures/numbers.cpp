#include "core/figures/numbers.h"

#include "core/figures/chinese_numerals.h"
#include "core/figures/number_dates.h"
#include "core/figures/number_roles.h"
#include "core/figures/text.h"

#include <array>
#include <cmath>
#include <optional>
#include <string>

namespace folio::figures {

namespace {

using Text = std::u32string_view;

// ---- the digits of one number -------------------------------------------------------------

struct Core {
    size_t end = 0;
    long double value = 0; // unsigned
    long double unit = 1;
    bool grouped = false;
    size_t int_digits = 0;
};

long double parse_digits(const std::u32string& int_part, const std::u32string& frac_part,
                         long double& unit) {
    long double v = 0;
    for (char32_t c : int_part)
        v = v * 10 + (c - U'0');
    unit = 1;
    for (char32_t c : frac_part) {
        unit /= 10;
        v += (c - U'0') * unit;
    }
    return v;
}

// Digits with separators from `d`; which separator is the decimal one follows the rules in
// numbers.h. A grouping that fits no rule ("1,2,3", "1.2.3") ends the number at its first run.
Core read_core(Text t, size_t d, const NumberStyle& style) {
    std::vector<std::u32string> groups;
    std::vector<char32_t> seps;
    std::vector<size_t> ends;
    size_t j = digits_from(t, d);
    groups.emplace_back(t.substr(d, j - d));
    ends.push_back(j);
    auto three_then_stop = [&](size_t k) {
        return k + 3 <= t.size() && digits_from(t, k) == k + 3;
    };
    while (j < t.size()) {
        const char32_t c = t[j];
        if ((c == U',' || c == U'.') && j + 1 < t.size() && is_digit(t[j + 1])) {
            seps.push_back(c);
        } else if (is_group_space(c) && three_then_stop(j + 1) && groups[0].size() <= 3) {
            seps.push_back(U' ');
        } else if (c == U' ' && style.space_groups && three_then_stop(j + 1) &&
                   groups[0].size() <= 3) {
            seps.push_back(U' ');
        } else {
            break;
        }
        const size_t k = digits_from(t, j + 1);
        groups.emplace_back(t.substr(j + 1, k - j - 1));
        ends.push_back(k);
        j = k;
    }
    Core core;
    long double unit = 1;
    auto integer_only = [&]() {
        core.end = ends[0];
        core.value = parse_digits(groups[0], {}, unit);
        core.unit = 1;
        core.grouped = false;
        core.int_digits = groups[0].size();
        return core;
    };
    if (seps.empty())
        return integer_only();

    // Which separator marks the decimals (0: none).
    char32_t decimal = 0;
    const char32_t last = seps.back();
    size_t count_last = 0;
    bool mixed = false;
    for (char32_t s : seps) {
        count_last += s == last ? 1 : 0;
        mixed = mixed || s != last;
    }
    if (last == U' ') {
        decimal = 0;
    } else if (mixed) {
        decimal = count_last == 1 ? last : 0;
        if (count_last != 1)
            return integer_only();
    } else if (count_last > 1) {
        decimal = 0;
    } else {
        const size_t g = groups.back().size();
        if (last == U',')
            decimal = (g == 3 && !style.decimal_comma) ? 0 : U',';
        else
            decimal = (g == 3 && style.decimal_comma) ? 0 : U'.';
    }
    // Thousands groups: the first of 1-3 digits, the others exactly 3; one thousands character.
    const size_t thousand_groups = decimal ? groups.size() - 1 : groups.size();
    char32_t thousands = 0;
    for (size_t g = 1; g < thousand_groups; ++g) {
        const char32_t s = seps[g - 1];
        if (groups[g].size() != 3 || (thousands && s != thousands) || s == decimal)
            return integer_only();
        thousands = s;
    }
    if (thousand_groups > 1 && (groups[0].size() > 3 || groups[0].empty()))
        return integer_only();
    std::u32string int_part;
    for (size_t g = 0; g < thousand_groups; ++g)
        int_part += groups[g];
    const std::u32string frac = decimal ? groups.back() : std::u32string();
    core.value = parse_digits(int_part, frac, unit);
    core.unit = unit;
    core.end = ends.back();
    core.grouped = true;
    core.int_digits = int_part.size();
    return core;
}

// ---- around the digits ----------------------------------------------------------------------

struct Scale {
    size_t length = 0; // 0: none
    long double factor = 1;
};

// An English scale word at `pos` (the space before it already skipped), or none. k / m / b
// only right after the digits and after a currency ("$5m", "$3.2bn"), never as units of length.
Scale english_scale(Text t, size_t pos, bool attached, bool currency) {
    struct Word {
        std::u32string_view word;
        long double factor;
        bool needs_currency;
    };
    static constexpr std::array<Word, 13> words = {{{U"trillion", 1e12L, false},
                                                    {U"billion", 1e9L, false},
                                                    {U"million", 1e6L, false},
                                                    {U"thousand", 1e3L, false},
                                                    {U"bn", 1e9L, false},
                                                    {U"mn", 1e6L, false},
                                                    {U"mln", 1e6L, false},
                                                    {U"tn", 1e12L, false},
                                                    {U"m", 1e6L, true},
                                                    {U"k", 1e3L, true},
                                                    {U"b", 1e9L, true},
                                                    {U"K", 1e3L, true},
                                                    {U"M", 1e6L, true}}};
    for (const Word& w : words) {
        if (w.needs_currency && (!attached || !currency))
            continue;
        if (w.word.size() == 1 ? (pos < t.size() && ascii_lower(t[pos]) == ascii_lower(w.word[0]) &&
                                  (pos + 1 >= t.size() || !is_word_letter(t[pos + 1])))
                               : word_at(t, pos, w.word))
            return {w.word.size(), w.factor};
    }
    return {};
}

Scale chinese_scale(Text t, size_t pos) {
    struct Word {
        std::u32string_view word;
        long double factor;
    };
    static constexpr std::array<Word, 10> words = {{{U"万亿", 1e12L},
                                                    {U"千亿", 1e11L},
                                                    {U"百亿", 1e10L},
                                                    {U"十亿", 1e9L},
                                                    {U"亿", 1e8L},
                                                    {U"千万", 1e7L},
                                                    {U"百万", 1e6L},
                                                    {U"十万", 1e5L},
                                                    {U"万", 1e4L},
                                                    {U"千", 1e3L}}};
    for (const Word& w : words)
        if (t.substr(pos, w.word.size()) == w.word)
            return {w.word.size(), w.factor};
    return {};
}

// A Chinese currency word at `pos`: 元 美元 港元 欧元 日元 英镑 人民币 (its length, or 0).
size_t chinese_currency(Text t, size_t pos) {
    static constexpr std::array<std::u32string_view, 7> words = {
        U"美元", U"港元", U"欧元", U"日元", U"英镑", U"人民币", U"元"};
    for (std::u32string_view w : words)
        if (t.substr(pos, w.size()) == w)
            return w.size();
    return 0;
}

// One space, or one line break: a page wraps "$4.50\nbillion".
size_t skip_one_space(Text t, size_t pos) {
    return pos < t.size() && (is_horizontal_space(t[pos]) || t[pos] == U'\n') ? pos + 1 : pos;
}

struct Suffix {
    size_t end = 0;
    NumberKind kind = NumberKind::Amount;
    long double factor = 1; // scale, or 0.01 for basis points
    bool scaled = false;
    bool currency = false;
    bool any = false;
};

Suffix read_suffix(Text t, size_t e, bool currency) {
    Suffix s;
    s.end = e;
    const size_t p = skip_one_space(t, e);
    auto done = [&](size_t end, NumberKind kind, long double factor, bool scaled) {
        s.end = end;
        s.kind = kind;
        s.factor = factor;
        s.scaled = scaled;
        s.any = true;
        return s;
    };
    if (p < t.size() && t[p] == U'%')
        return done(p + 1, NumberKind::Percent, 1, false);
    if (word_at(t, p, U"percentage points") || word_at(t, p, U"percentage point"))
        return done(p + (word_at(t, p, U"percentage points") ? 17 : 16), NumberKind::Points, 1,
                    false);
    if (word_at(t, p, U"percent"))
        return done(p + 7, NumberKind::Percent, 1, false);
    if (word_at(t, p, U"per cent"))
        return done(p + 8, NumberKind::Percent, 1, false);
    for (std::u32string_view w : {U"ppts", U"ppt", U"pp", U"pts"})
        if (word_at(t, p, w))
            return done(p + w.size(), NumberKind::Points, 1, false);
    for (std::u32string_view w : {U"basis points", U"basis point", U"bps", U"bp"})
        if (word_at(t, p, w))
            return done(p + w.size(), NumberKind::Points, 0.01L, false);
    for (std::u32string_view w : {U"个百分点", U"百分点"})
        if (t.substr(p, w.size()) == w)
            return done(p + w.size(), NumberKind::Points, 1, false);
    for (std::u32string_view w : {U"个基点", U"基点"})
        if (t.substr(p, w.size()) == w)
            return done(p + w.size(), NumberKind::Points, 0.01L, false);
    // Chinese: a scale then a currency, or a currency alone (Chinese puts no space before them).
    if (const Scale cs = chinese_scale(t, e); cs.length > 0) {
        size_t end = e + cs.length;
        const size_t cur = chinese_currency(t, end);
        s = done(end + cur, NumberKind::Amount, cs.factor, true);
        s.currency = cur > 0;
        return s;
    }
    if (const size_t cur = chinese_currency(t, e); cur > 0) {
        s = done(e + cur, NumberKind::Amount, 1, false);
        s.currency = true;
        return s;
    }
    if (const Scale es = english_scale(t, p, p == e, currency); es.length > 0)
        return done(p + es.length, NumberKind::Amount, es.factor, true);
    return s;
}

bool sign_at(Text t, size_t k) {
    return (t[k] == U'-' || t[k] == U'+') &&
           (k == 0 || !(is_digit(t[k - 1]) || is_word_letter(t[k - 1]) || t[k - 1] == U'.' ||
                        t[k - 1] == U','));
}

// ---- one number ----------------------------------------------------------------------------

struct Single {
    NumberToken tok;
    size_t digits_start = 0;
    size_t core_end = 0;
    bool paren_open = false;
    bool whole_integer = false;
    bool suffix = false;
};

Single read_single(Text t, size_t d, const NumberStyle& style) {
    Single one;
    NumberToken& tok = one.tok;
    const Core core = read_core(t, d, style);
    one.digits_start = d;
    one.core_end = core.end;
    one.whole_integer = !core.grouped;
    tok.grouped = core.grouped;

    // Before: sign, currency, sign, "(".
    size_t s = d;
    bool negative = false;
    if (s > 0 && sign_at(t, s - 1)) {
        negative = t[s - 1] == U'-';
        tok.explicit_sign = true;
        --s;
    } else {
        size_t k = s;
        if (k > 0 && is_horizontal_space(t[k - 1]) && k > 1 && !is_digit(t[k - 2]))
            --k;
        const size_t cur = currency_before(t, k);
        if (cur > 0) {
            tok.currency = true;
            s = k - cur;
            if (s > 0 && sign_at(t, s - 1)) {
                negative = t[s - 1] == U'-';
                tok.explicit_sign = true;
                --s;
            }
        }
    }
    // 百分之十二 is read with the Chinese numerals; 百分之12.4 here.
    bool percent_prefix = false;
    if (s >= 3 && t.substr(s - 3, 3) == U"百分之") {
        percent_prefix = true;
        s -= 3;
    }
    if (s > 0 && t[s - 1] == U'(')
        one.paren_open = true;

    // After: % / points / scale / currency word, ")".
    const Suffix suf = read_suffix(t, core.end, tok.currency);
    size_t e = suf.end;
    one.suffix = suf.any;
    tok.kind = percent_prefix ? NumberKind::Percent : suf.kind;
    tok.scaled = suf.scaled;
    tok.currency = tok.currency || suf.currency;
    if (one.paren_open) {
        size_t close = e;
        if (close < t.size() && t[close] == U')') {
            // "(3.4)" and "(3.4)%" are negatives; "(1) " at a line's start is a list marker,
            // decided with the role.
            ++close;
            if (tok.kind == NumberKind::Amount && !suf.any && close < t.size() &&
                t[close] == U'%') {
                tok.kind = NumberKind::Percent;
                ++close;
            }
            tok.start = s - 1;
            tok.end = close;
            // "(2) currency movements": an enumeration, wherever it stands.
            const bool enumerates = close + 1 < t.size() && is_horizontal_space(t[close]) &&
                                    is_word_letter(t[close + 1]);
            // "(2025)" is a year in brackets, not minus 2025.
            const bool year = one.whole_integer && !suf.any && !tok.currency && core.end - d == 4 &&
                              core.value >= 1900 && core.value <= 2100;
            if (!year &&
                !(one.whole_integer && !suf.any && (at_line_start(t, s - 1) || enumerates))) {
                negative = true;
                tok.explicit_sign = true;
            }
        } else {
            one.paren_open = false;
        }
    }
    if (!one.paren_open) {
        tok.start = s;
        tok.end = e;
    }
    const long double sign = negative ? -1 : 1;
    tok.first.raw = sign * core.value;
    tok.first.raw_unit = core.unit;
    tok.first.value = tok.first.raw * suf.factor;
    tok.first.unit = core.unit * suf.factor;
    return one;
}

void apply_scale_of(NumberValue& v, const NumberToken& from) {
    const long double factor = from.first.raw != 0 ? from.first.value / from.first.raw : 1;
    v.value = v.raw * factor;
    v.unit = v.raw_unit * factor;
}

// "to", "至", "到", "~", or a dash joining two numbers; returns where the second may start.
std::optional<size_t> range_joint(Text t, size_t e) {
    size_t p = e;
    const bool space_before = p < t.size() && is_horizontal_space(t[p]);
    if (space_before)
        ++p;
    if (p >= t.size())
        return std::nullopt;
    size_t q = 0;
    if (t[p] == U'-') {
        if (space_before)
            return std::nullopt; // "5 - 3" is arithmetic, "5-3" a range
        q = p + 1;
    } else if (is_dash(t[p]) || t[p] == U'~' || t[p] == U'～' || t[p] == U'至' || t[p] == U'到') {
        q = p + 1;
    } else if (space_before && word_at(t, p, U"to")) {
        q = p + 2;
    } else {
        return std::nullopt;
    }
    if (q < t.size() && is_horizontal_space(t[q]) && (t[p] != U'-'))
        ++q;
    return q;
}

std::optional<NumberToken> chinese_at(Text t, size_t i) {
    if (i > 0 && (is_chinese_numeral_char(t[i - 1]) || t[i - 1] == U'第'))
        return std::nullopt;
    const auto n = read_chinese_number(t, i);
    if (!n)
        return std::nullopt;
    NumberToken tok;
    tok.start = i;
    size_t e = i + n->length;
    const bool percent = i >= 3 && t.substr(i - 3, 3) == U"百分之";
    long double factor = 1;
    if (percent) {
        tok.start = i - 3;
        tok.kind = NumberKind::Percent;
    } else {
        // 十二点四亿 (a decimal then a scale), 三千万元
        const Scale cs = chinese_scale(t, e);
        if (cs.length > 0) {
            factor = cs.factor;
            e += cs.length;
            tok.scaled = true;
        }
        const size_t cur = chinese_currency(t, e);
        tok.currency = cur > 0;
        e += cur;
        if (!(n->big_unit || tok.scaled || tok.currency))
            return std::nullopt; // 三个, 一是: counts and enumerations are not figures
        tok.scaled = tok.scaled || n->big_unit;
    }
    tok.end = e;
    tok.first.raw = n->value;
    tok.first.raw_unit = n->unit;
    tok.first.value = n->value * factor;
    tok.first.unit = n->unit * factor;
    tok.grouped = true;
    return tok;
}

} // namespace

NumberStyle detect_style(Text t) {
    int comma_votes = 0, dot_votes = 0, space_votes = 0;
    size_t i = 0;
    while (i < t.size()) {
        if (!is_digit(t[i]) ||
            (i > 0 && (is_digit(t[i - 1]) || t[i - 1] == U',' || t[i - 1] == U'.'))) {
            ++i;
            continue;
        }
        // The separators of this run: "1.234,5" votes comma, "1,234.5" votes dot, "3,5" comma,
        // "3.5" dot; a lone "1,234" or "1.234" says nothing.
        std::vector<std::pair<char32_t, size_t>> seps; // separator, digits after it
        size_t j = digits_from(t, i);
        bool spaced = false;
        while (j + 1 < t.size() && (t[j] == U',' || t[j] == U'.' || is_horizontal_space(t[j])) &&
               is_digit(t[j + 1])) {
            const size_t k = digits_from(t, j + 1);
            if (is_horizontal_space(t[j])) {
                if (k - j - 1 != 3)
                    break;
                spaced = true;
                seps.push_back({U' ', 3});
            } else {
                seps.push_back({t[j], k - j - 1});
            }
            j = k;
        }
        if (!seps.empty()) {
            const auto [last, after] = seps.back();
            bool other = false;
            for (size_t k = 0; k + 1 < seps.size(); ++k)
                other = other || (seps[k].first != last && seps[k].first != U' ');
            if (last == U',' && (other || after != 3))
                ++comma_votes;
            else if (last == U'.' && (other || after != 3))
                ++dot_votes;
            if (spaced && last == U',' && after != 3)
                ++space_votes;
        }
        i = j;
    }
    NumberStyle style;
    style.decimal_comma = comma_votes > dot_votes;
    style.space_groups = style.decimal_comma && space_votes > 0;
    return style;
}

std::vector<NumberToken> read_numbers(Text t, const NumberStyle& style) {
    std::vector<NumberToken> out;
    size_t i = 0;
    while (i < t.size()) {
        const char32_t c = t[i];
        if (is_digit(c) || is_word_letter(c)) {
            if (auto date = date_at(t, i)) {
                out.push_back(*date);
                i = date->end;
                continue;
            }
        }
        if (is_word_letter(c)) {
            // Skip the word: its digits ("Q3", "FY2024") are read as part of a name below.
            ++i;
            continue;
        }
        if (is_chinese_digit(c) || c == U'十') {
            if (auto tok = chinese_at(t, i)) {
                out.push_back(*tok);
                i = tok->end;
                continue;
            }
            while (i < t.size() && is_chinese_numeral_char(t[i]))
                ++i;
            continue;
        }
        if (!is_digit(c) || (i > 0 && is_digit(t[i - 1]))) {
            ++i;
            continue;
        }
        Single one = read_single(t, i, style);
        NumberToken tok = one.tok;
        size_t core_end = one.core_end;
        // A range: the second number, whose scale or % the first takes when it has none.
        if (!one.paren_open) {
            if (auto q = range_joint(t, tok.end); q && *q < t.size()) {
                size_t d2 = *q;
                size_t k = d2;
                while (k < t.size() && !is_digit(t[k]) && k < d2 + 4 && !is_space(t[k]))
                    ++k; // a currency before the second number
                if (k < t.size() && is_digit(t[k]) &&
                    (k == d2 || currency_before(t, k) == k - d2)) {
                    Single two = read_single(t, k, style);
                    const bool both_years = one.whole_integer && two.whole_integer &&
                                            tok.first.raw >= 1900 && tok.first.raw <= 2100 &&
                                            two.tok.first.raw >= 0;
                    const bool kinds_agree = !one.suffix || !two.suffix || tok.kind == two.tok.kind;
                    if (kinds_agree && !two.tok.explicit_sign) {
                        tok.range = true;
                        tok.second = two.tok.first;
                        if (!one.suffix && two.suffix) {
                            tok.kind = two.tok.kind;
                            tok.scaled = two.tok.scaled;
                            apply_scale_of(tok.first, two.tok);
                        }
                        tok.currency = tok.currency || two.tok.currency;
                        tok.grouped = tok.grouped || two.tok.grouped;
                        tok.end = two.tok.end;
                        core_end = two.core_end;
                        if (both_years && !tok.currency && !tok.scaled &&
                            tok.kind == NumberKind::Amount) {
                            tok.role = NumberRole::Year;
                            out.push_back(tok);
                            i = tok.end;
                            continue;
                        }
                    }
                }
            }
        }
        tok.role = role_of(t, tok, one.digits_start, core_end, one.paren_open && !tok.explicit_sign,
                           one.whole_integer && !tok.range);
        out.push_back(tok);
        i = std::max(tok.end, one.core_end);
    }
    return out;
}

size_t currency_before(Text t, size_t end) {
    if (end == 0)
        return 0;
    const char32_t c = t[end - 1];
    if (c == U'¥' || c == U'€' || c == U'£' || c == U'￥')
        return 1;
    if (c == U'$') {
        // US$ HK$ NT$ A$ S$ C$
        size_t k = end - 1;
        size_t letters = 0;
        while (k > 0 && is_ascii_letter(t[k - 1]) && letters < 2) {
            --k;
            ++letters;
        }
        if (letters > 0 && (k == 0 || !is_word_letter(t[k - 1])))
            return 1 + letters;
        return 1;
    }
    static constexpr std::array<std::u32string_view, 8> codes = {U"RMB", U"CNY", U"USD", U"EUR",
                                                                 U"HKD", U"GBP", U"JPY", U"Rmb"};
    for (std::u32string_view code : codes) {
        if (end >= code.size() && starts_with_ci(t, end - code.size(), code) &&
            (end == code.size() || !is_word_letter(t[end - code.size() - 1])))
            return code.size();
    }
    static constexpr std::u32string_view rmb = U"人民币";
    if (end >= rmb.size() && t.substr(end - rmb.size(), rmb.size()) == rmb)
        return rmb.size();
    return 0;
}

} // namespace folio::figures
