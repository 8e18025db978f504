#include "core/figures/number_dates.h"

#include "core/figures/text.h"

#include <array>

namespace folio::figures {

namespace {

using Text = std::u32string_view;

int month_named(Text t, size_t pos, size_t& length) {
    static constexpr std::array<std::u32string_view, 12> names = {
        U"january", U"february", U"march",     U"april",   U"may",      U"june",
        U"july",    U"august",   U"september", U"october", U"november", U"december"};
    if ((pos > 0 && is_word_letter(t[pos - 1])) || pos >= t.size() || t[pos] < U'A' ||
        t[pos] > U'Z')
        return 0; // capitalised: "May 5", not "may 5"
    for (int m = 0; m < 12; ++m) {
        if (word_at(t, pos, names[m])) {
            length = names[m].size();
            return m + 1;
        }
        const std::u32string_view abbr = names[m].substr(0, 3);
        if (word_at(t, pos, abbr) || (m == 8 && word_at(t, pos, U"sept"))) {
            length = m == 8 && word_at(t, pos, U"sept") ? 4 : 3;
            if (pos + length < t.size() && t[pos + length] == U'.')
                ++length;
            return m + 1;
        }
    }
    return 0;
}

int number_at(Text t, size_t pos, size_t min_digits, size_t max_digits, size_t& end) {
    end = digits_from(t, pos);
    const size_t n = end - pos;
    if (n < min_digits || n > max_digits)
        return -1;
    int v = 0;
    for (size_t i = pos; i < end; ++i)
        v = v * 10 + int(t[i] - U'0');
    return v;
}

bool valid_date(int y, int m, int d) {
    return y >= 1000 && y <= 2999 && m >= 1 && m <= 12 && d >= 0 && d <= 31;
}

size_t skip_ordinal(Text t, size_t pos) {
    for (std::u32string_view w : {U"st", U"nd", U"rd", U"th"})
        if (word_at(t, pos, w))
            return pos + 2;
    return pos;
}

} // namespace

std::optional<NumberToken> date_at(std::u32string_view t, size_t i) {
    NumberToken tok;
    tok.kind = NumberKind::Date;
    tok.start = i;
    auto finish = [&](size_t end, int y, int m, int d) -> std::optional<NumberToken> {
        if (!valid_date(y, m, d) ||
            (end < t.size() && (is_digit(t[end]) || is_word_letter(t[end]))))
            return std::nullopt;
        tok.end = end;
        tok.year = y;
        tok.month = m;
        tok.day = d;
        tok.role = d > 0 ? NumberRole::Claim : NumberRole::MonthOfYear;
        return tok;
    };
    size_t e1 = 0, e2 = 0, e3 = 0, ml = 0;
    if (is_digit(t[i])) {
        if (i > 0 && (is_digit(t[i - 1]) || t[i - 1] == U'.' || t[i - 1] == U','))
            return std::nullopt;
        // 2024-12-31, 2024/12/31, 2024.12.31
        const int y = number_at(t, i, 4, 4, e1);
        if (y > 0 && e1 < t.size() && (t[e1] == U'-' || t[e1] == U'/' || t[e1] == U'.')) {
            const char32_t sep = t[e1];
            const int m = number_at(t, e1 + 1, 1, 2, e2);
            if (m > 0 && e2 < t.size() && t[e2] == sep) {
                const int d = number_at(t, e2 + 1, 1, 2, e3);
                if (d > 0)
                    return finish(e3, y, m, d);
            }
        }
        // 2024年12月31日, 2024年12月
        if (y > 0 && e1 < t.size() && t[e1] == U'年') {
            const int m = number_at(t, e1 + 1, 1, 2, e2);
            if (m > 0 && e2 < t.size() && t[e2] == U'月') {
                const int d = number_at(t, e2 + 1, 1, 2, e3);
                if (d > 0 && e3 < t.size() && (t[e3] == U'日' || t[e3] == U'号')) {
                    tok.end = e3 + 1;
                    if (valid_date(y, m, d)) {
                        tok.year = y, tok.month = m, tok.day = d;
                        return tok;
                    }
                    return std::nullopt;
                }
                if (valid_date(y, m, 0)) {
                    tok.end = e2 + 1;
                    tok.year = y, tok.month = m;
                    tok.role = NumberRole::MonthOfYear;
                    return tok;
                }
            }
        }
        // 31/12/2024, 31.12.2024: day and month either way when both are at most 12.
        const int a = number_at(t, i, 1, 2, e1);
        if (a > 0 && e1 < t.size() && (t[e1] == U'/' || t[e1] == U'.')) {
            const char32_t sep = t[e1];
            const int b = number_at(t, e1 + 1, 1, 2, e2);
            if (b > 0 && e2 < t.size() && t[e2] == sep) {
                const int yy = number_at(t, e2 + 1, 4, 4, e3);
                if (yy > 0) {
                    if (a > 12)
                        return finish(e3, yy, b, a);
                    auto r = finish(e3, yy, a, b);
                    if (r && b <= 12)
                        r->day_month_swappable = true;
                    return r;
                }
            }
        }
        // 31 December 2024, 31st Dec. 2024
        if (a > 0 && a <= 31) {
            size_t p = skip_ordinal(t, e1);
            if (p < t.size() && is_horizontal_space(t[p])) {
                const int m = month_named(t, p + 1, ml);
                if (m > 0) {
                    size_t q = p + 1 + ml;
                    if (q < t.size() && t[q] == U',')
                        ++q;
                    if (q < t.size() && is_horizontal_space(t[q])) {
                        const int y2 = number_at(t, q + 1, 4, 4, e3);
                        if (y2 > 0)
                            return finish(e3, y2, m, a);
                    }
                    // "1 March": a day of no year, not a figure.
                    tok.end = p + 1 + ml;
                    tok.month = m;
                    tok.day = a;
                    tok.role = NumberRole::MonthOfYear;
                    return tok;
                }
            }
        }
        return std::nullopt;
    }
    // December 31, 2024 · December 2024
    const int m = month_named(t, i, ml);
    if (m == 0)
        return std::nullopt;
    size_t p = i + ml;
    if (p >= t.size() || !is_horizontal_space(t[p]))
        return std::nullopt;
    const int d = number_at(t, p + 1, 1, 4, e1);
    if (d <= 0)
        return std::nullopt;
    if (e1 - (p + 1) == 4)
        return finish(e1, d, m, 0);
    if (e1 - (p + 1) > 2)
        return std::nullopt;
    size_t q = skip_ordinal(t, e1);
    if (q < t.size() && t[q] == U',')
        ++q;
    if (q < t.size() && is_horizontal_space(t[q])) {
        const int y = number_at(t, q + 1, 4, 4, e2);
        if (y > 0)
            return finish(e2, y, m, d);
    }
    if (d > 31 || (e1 < t.size() && (is_digit(t[e1]) || is_word_letter(t[e1]))))
        return std::nullopt;
    tok.end = e1; // "March 1": a day of no year, not a figure
    tok.month = m;
    tok.day = d;
    tok.role = NumberRole::MonthOfYear;
    return tok;
}

} // namespace folio::figures
