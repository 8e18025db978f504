#include "core/figures/page_unit.h"

#include "core/figures/numbers.h"
#include "core/figures/text.h"

#include <algorithm>
#include <array>

namespace folio::figures {

namespace {

using Text = std::u32string_view;

void add(std::vector<long double>& out, long double factor) {
    if (std::find(out.begin(), out.end(), factor) == out.end())
        out.push_back(factor);
}

size_t skip_spaces_back(Text t, size_t k) {
    while (k > 0 && is_horizontal_space(t[k - 1]))
        --k;
    return k;
}

// What stands before an English scale word at `p` makes it a unit statement: "in", "(", ":",
// the line's start, with at most a currency in between ("in US$ millions", "(RMB million)").
bool states_unit(Text t, size_t p) {
    size_t k = skip_spaces_back(t, p);
    if (k > 0 && (is_digit(t[k - 1]) || t[k - 1] == U'.' || t[k - 1] == U','))
        return false; // "3.2 million": an amount
    const size_t cur = currency_before(t, k);
    if (cur > 0) {
        k = skip_spaces_back(t, k - cur);
        if (k > 0 && is_digit(t[k - 1]))
            return false;
    }
    if (k == 0 || t[k - 1] == U'\n' || t[k - 1] == U'(' || t[k - 1] == U'[' || t[k - 1] == U':')
        return true;
    return k >= 2 && ascii_lower(t[k - 2]) == U'i' && ascii_lower(t[k - 1]) == U'n' &&
           (k == 2 || !is_word_letter(t[k - 3]));
}

long double chinese_scale_at(Text t, size_t pos, size_t& length) {
    struct Word {
        std::u32string_view word;
        long double factor;
    };
    static constexpr std::array<Word, 8> words = {{{U"千万", 1e7L},
                                                   {U"百万", 1e6L},
                                                   {U"十万", 1e5L},
                                                   {U"十亿", 1e9L},
                                                   {U"亿", 1e8L},
                                                   {U"万", 1e4L},
                                                   {U"千", 1e3L},
                                                   {U"百", 1e2L}}};
    for (const Word& w : words)
        if (t.substr(pos, w.word.size()) == w.word) {
            length = w.word.size();
            return w.factor;
        }
    length = 0;
    return 0;
}

bool chinese_currency_at(Text t, size_t pos) {
    for (std::u32string_view w : {U"元", U"美元", U"港元", U"欧元", U"日元", U"英镑"})
        if (t.substr(pos, w.size()) == w)
            return true;
    return false;
}

// After "单位：" or "（": [人民币] scale currency, e.g. 百万美元, 人民币万元, 亿元.
long double chinese_unit_at(Text t, size_t pos) {
    if (t.substr(pos, 3) == U"人民币")
        pos += 3;
    size_t length = 0;
    const long double factor = chinese_scale_at(t, pos, length);
    if (factor > 0 && chinese_currency_at(t, pos + length))
        return factor;
    return 0;
}

} // namespace

std::vector<long double> page_unit_factors(Text t) {
    std::vector<long double> out;
    struct Word {
        std::u32string_view word;
        long double factor;
    };
    static constexpr std::array<Word, 9> words = {{{U"thousands", 1e3L},
                                                   {U"thousand", 1e3L},
                                                   {U"millions", 1e6L},
                                                   {U"million", 1e6L},
                                                   {U"billions", 1e9L},
                                                   {U"billion", 1e9L},
                                                   {U"mn", 1e6L},
                                                   {U"bn", 1e9L},
                                                   {U"m", 1e6L}}};
    for (size_t i = 0; i < t.size(); ++i) {
        const char32_t c = t[i];
        if (is_ascii_letter(c) && (i == 0 || !is_word_letter(t[i - 1]))) {
            for (const Word& w : words) {
                if (!word_at(t, i, w.word))
                    continue;
                // "m" alone only right after a currency: "(€m)", "$m".
                if (w.word == U"m" && currency_before(t, i) == 0)
                    break;
                if (states_unit(t, i))
                    add(out, w.factor);
                break;
            }
        } else if ((c == U'\'' || c == U'’') && t.substr(i + 1, 3) == U"000" &&
                   (i + 4 >= t.size() || !is_digit(t[i + 4]))) {
            // RMB'000, HK$'000, (in '000)
            if (currency_before(t, i) > 0 || states_unit(t, i))
                add(out, 1e3L);
        } else if (c == U'单' && t.substr(i, 2) == U"单位") {
            size_t p = i + 2;
            while (p < t.size() && (t[p] == U':' || t[p] == U'：' || is_horizontal_space(t[p])))
                ++p;
            if (const long double f = chinese_unit_at(t, p); f > 0)
                add(out, f);
        } else if (c == U'(' || c == U'（') {
            if (const long double f = chinese_unit_at(t, i + 1); f > 0)
                add(out, f);
        }
    }
    return out;
}

} // namespace folio::figures
