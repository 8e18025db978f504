#include "core/figures/chinese_numerals.h"

#include <cmath>

namespace folio::figures {

namespace {

int digit_of(char32_t c) {
    switch (c) {
    case U'零':
    case U'〇':
        return 0;
    case U'一':
        return 1;
    case U'二':
    case U'两':
        return 2;
    case U'三':
        return 3;
    case U'四':
        return 4;
    case U'五':
        return 5;
    case U'六':
        return 6;
    case U'七':
        return 7;
    case U'八':
        return 8;
    case U'九':
        return 9;
    default:
        return -1;
    }
}

long double small_unit(char32_t c) {
    return c == U'十' ? 10 : c == U'百' ? 100 : c == U'千' ? 1000 : 0;
}

// The largest power of ten (at least `floor`) that divides `v`.
long double place_of(long double v, long double floor) {
    long double p = floor;
    if (v == 0)
        return p;
    while (p * 10 <= std::fabs(v)) {
        const long double q = v / (p * 10);
        if (std::fabs(q - std::round(q)) > 1e-9L)
            break;
        p *= 10;
    }
    return p;
}

} // namespace

bool is_chinese_digit(char32_t c) {
    return digit_of(c) >= 0;
}

bool is_chinese_numeral_char(char32_t c) {
    return is_chinese_digit(c) || small_unit(c) > 0 || c == U'万' || c == U'亿' || c == U'点';
}

std::optional<ChineseNumber> read_chinese_number(std::u32string_view text, size_t pos) {
    if (pos >= text.size() || !(is_chinese_digit(text[pos]) || text[pos] == U'十'))
        return std::nullopt;
    long double total = 0, wan = 0, section = 0, number = 0;
    bool big = false, any = false;
    size_t i = pos;
    long double fraction = 0, fraction_unit = 1;
    bool in_fraction = false;
    for (; i < text.size(); ++i) {
        const char32_t c = text[i];
        const int d = digit_of(c);
        if (in_fraction) {
            if (d < 0)
                break;
            fraction_unit /= 10;
            fraction += d * fraction_unit;
            continue;
        }
        if (d >= 0) {
            number = d;
            any = true;
        } else if (small_unit(c) > 0) {
            // 十 alone and 零十 mean one ten.
            section += (number > 0 ? number : 1) * small_unit(c);
            number = 0;
            any = true;
        } else if (c == U'万' && any) {
            wan = (section + number) * 10000;
            section = number = 0;
            big = true;
        } else if (c == U'亿' && any) {
            total = (total + wan + section + number) * 100000000;
            wan = section = number = 0;
            big = true;
        } else if (c == U'点' && any && i + 1 < text.size() && digit_of(text[i + 1]) >= 0 &&
                   section == 0 && wan == 0 && total == 0) {
            in_fraction = true;
        } else {
            break;
        }
    }
    if (!any)
        return std::nullopt;
    ChineseNumber n;
    n.length = i - pos;
    if (in_fraction) {
        // 十二点四 / 一点五: a decimal, possibly followed by 万 or 亿 (read by the caller).
        n.value = section + number + fraction;
        n.unit = fraction_unit;
        return n;
    }
    n.value = total + wan + section + number;
    n.unit = place_of(n.value, 1);
    n.big_unit = big;
    return n;
}

} // namespace folio::figures
