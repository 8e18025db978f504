#pragma once
// Numbers as documents and answers write them, read from normalised text (text.h):
//   amounts  1,234.5 · 1 234,5 · 1.234,5 (where the text uses a decimal comma) · (3.4) as a
//            negative · currencies RMB ¥ $ US$ HK$ € £ 元 美元 港元 · scale words thousand,
//            million, billion, trillion, bn, mn, k / m / b after a currency, 千 万 十万 百万 千万
//            亿 十亿 · Chinese numerals with 万 / 亿 or a currency (三千五百万元, 十二亿)
//   percents 12.4 % · 12.4 percent · 百分之十二点四 · points: 2.1 pp · 2.1 percentage points ·
//            2.1 个百分点 · 50 bps (= 0.5 points)
//   dates    2024-12-31 · 31 December 2024 · December 31, 2024 · 2024年12月31日 · 31/12/2024
//   ranges   3.2–3.5 billion · 5-7 % · 3至5亿 (the scale or % of one end is the other's too)
// Each number gets a role: a claim, or one of the kinds that are not claims (docs/FIGURE_CHECK.md):
// a year standing alone, a month of a year, a list marker, a reference ("note 5", "table 2",
// "第3页") or part of a name ("Q3", "COVID-19", "5G", "1st").

#include <string_view>
#include <vector>

namespace folio::figures {

enum class NumberKind { Amount, Percent, Points, Date };
enum class NumberRole { Claim, Year, MonthOfYear, ListMarker, Reference, NamePart };

// How a text writes decimals: "1,234.5" (default) or "1.234,5" / "1 234,5".
struct NumberStyle {
    bool decimal_comma = false;
    bool space_groups = false; // a plain space groups thousands (only with a decimal comma)
};
// The style most of the text's numbers show; ties keep the default.
NumberStyle detect_style(std::u32string_view text);

struct NumberValue {
    long double value = 0; // signed; the written scale applied ("3.2 billion" = 3.2e9)
    long double unit = 1;  // the place value of the last digit shown, scale applied (1e8)
    long double raw = 0;   // the digits alone, signed (3.2)
    long double raw_unit = 1;
};

struct NumberToken {
    size_t start = 0; // code points, from the currency / sign / "(" through the scale / "%" / ")"
    size_t end = 0;
    NumberKind kind = NumberKind::Amount;
    NumberRole role = NumberRole::Claim;
    NumberValue first;
    bool range = false;
    NumberValue second;               // the range's other end
    bool scaled = false;              // a scale word was written (million, 亿, bn)
    bool currency = false;            // a currency was written
    bool explicit_sign = false;       // "-3.4", "+3.4", "(3.4)"
    bool grouped = false;             // thousands separators or decimals were written
    int year = 0, month = 0, day = 0; // dates
    bool day_month_swappable = false; // 03/04/2024: either way
};

// The length of the currency written right before `end` ("$", "US$", "HK$", "RMB", "¥", "€",
// "人民币", ...), or 0.
size_t currency_before(std::u32string_view text, size_t end);

// Every number of `text` (normalised with normalize_for_numbers), in order.
std::vector<NumberToken> read_numbers(std::u32string_view text, const NumberStyle& style);

} // namespace folio::figures
