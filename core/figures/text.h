#pragma once
// Text helpers of the figure checker: UTF-8 to code points and back, the one-for-one
// normalisation that makes full-width digits and signs plain ASCII, OCR's letter-for-digit
// confusions, and the character classes the number reader asks about. Every helper keeps one
// code point for one, so positions in normalised text are positions in the original.

#include <string>
#include <string_view>

namespace folio::figures {

// Invalid bytes become U+FFFD (one per byte).
std::u32string decode_utf8(std::string_view text);
std::string encode_utf8(std::u32string_view text);

// Full-width digits, ．，％＋－（）＄￥ and the ideographic space become their ASCII forms,
// U+2212 (minus) becomes '-'; nothing else changes. Same length as the input.
std::u32string normalize_for_numbers(std::u32string_view text);

// OCR reads 0 as O/o and 1 as l/I. In a run of digits, those letters and the separators
// , and . that is bounded by no other letter and holds at least one real digit, the letters
// become digits: "1O2.5" -> "102.5", "l,234" -> "1,234". Words ("Total", "I", "lO") are left.
void repair_ocr_digits(std::u32string& text);

inline bool is_digit(char32_t c) {
    return c >= U'0' && c <= U'9';
}
// The end of the run of ASCII digits that starts at `pos` (`pos` itself when none).
inline size_t digits_from(std::u32string_view text, size_t pos) {
    while (pos < text.size() && is_digit(text[pos]))
        ++pos;
    return pos;
}
inline bool is_ascii_letter(char32_t c) {
    return (c >= U'a' && c <= U'z') || (c >= U'A' && c <= U'Z');
}
// A letter of a word next to a number: ASCII or Latin-1 / Latin Extended letters, Greek,
// Cyrillic. CJK characters are not letters here (Chinese puts numbers right next to words).
bool is_word_letter(char32_t c);
// Spaces that group thousands without ever separating two numbers: no-break, thin, narrow
// no-break and figure spaces.
inline bool is_group_space(char32_t c) {
    return c == 0x00A0 || c == 0x2009 || c == 0x202F || c == 0x2007;
}
inline bool is_space(char32_t c) {
    return c == U' ' || c == U'\t' || c == U'\n' || c == U'\r' || c == 0x3000 || is_group_space(c);
}
inline bool is_horizontal_space(char32_t c) {
    return c == U' ' || c == U'\t' || c == 0x3000 || is_group_space(c);
}
inline char32_t ascii_lower(char32_t c) {
    return c >= U'A' && c <= U'Z' ? c + 32 : c;
}
// Lower case for the scripts document titles are written in: ASCII, Latin-1, Latin Extended-A,
// Greek and Cyrillic capitals (Unicode's simple case mapping for those blocks; other letters
// are returned as they are). Titles compare through it, as Qt's case folding does for them.
char32_t simple_lower(char32_t c);
// Dashes that join a range or stand for minus: - – — ‒ ~ ～ and U+2212.
inline bool is_dash(char32_t c) {
    return c == U'-' || c == 0x2013 || c == 0x2014 || c == 0x2012 || c == 0x2212;
}

// True when `text` at `pos` starts with `word` (ASCII, compared case-insensitively).
bool starts_with_ci(std::u32string_view text, size_t pos, std::u32string_view word);
// `word` at `pos` and not followed by a letter.
bool word_at(std::u32string_view text, size_t pos, std::u32string_view word);

// Trimmed, runs of white space made one space.
std::string collapse_spaces(std::string_view text);

} // namespace folio::figures
