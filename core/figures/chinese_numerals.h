#pragma once
// Chinese numerals as amounts are written: 三千五百万, 十二亿, 一百零五万, 两百, 百分之十二点四.
// Only the reading is here; numbers.cpp decides when such a run is a figure (with 万 / 亿, a
// currency such as 元, or after 百分之).

#include <optional>
#include <string_view>

namespace folio::figures {

struct ChineseNumber {
    size_t length = 0;     // code points read
    long double value = 0; // 三千五百万 = 35000000
    long double unit = 1;  // place value of the last digit written: 三千五百万 -> 1000000
    bool big_unit = false; // 万 or 亿 was written
};

bool is_chinese_digit(char32_t c);        // 零〇一二两三四五六七八九
bool is_chinese_numeral_char(char32_t c); // the digits, 十百千万亿 and 点

// The numeral that starts at `pos` (a digit or 十), or nothing.
std::optional<ChineseNumber> read_chinese_number(std::u32string_view text, size_t pos);

} // namespace folio::figures
