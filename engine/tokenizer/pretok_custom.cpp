// Hand-written splitters equivalent to the GPT-2, Llama-3 / Qwen2 and Kimi-K2 patterns, as
// llama.cpp's custom splitters realize them (src/unicode.cpp). At every position the first
// alternative that matches wins; a position no alternative matches becomes a one-code-point
// piece.
#include "tokenizer/pretok_splitters.h"

namespace folio::tokenizer {

namespace {

constexpr uint32_t kOutOfRange = 0xFFFFFFFF;

// Position helpers over [begin, end): outside the range a code point reads kOutOfRange and
// its flags 0 (which no class test accepts).
struct Cursor {
    const FragmentView& f;
    size_t begin;
    size_t end;
    size_t prev; // end of the last piece emitted
    Pieces& out;

    uint32_t cp(size_t p) const { return p < end ? f.cp[p] : kOutOfRange; }
    CpFlags flags(size_t p) const { return p < end ? f.flags[p] : CpFlags{0}; }
    bool letter(size_t p) const { return (flags(p) & kLetter) != 0; }
    bool number(size_t p) const { return (flags(p) & kNumber) != 0; }
    bool space(size_t p) const { return (flags(p) & kWhitespace) != 0; }
    // [^\s\p{L}\p{N}] for a code point inside the range (unassigned ones included).
    bool other(size_t p) const {
        return p < end && (f.flags[p] & (kWhitespace | kLetter | kNumber)) == 0;
    }
    bool crlf(size_t p) const { return cp(p) == '\r' || cp(p) == '\n'; }

    void emit(size_t e) {
        if (e > prev)
            out.push_back(static_cast<uint32_t>(e - prev));
        prev = e;
    }

    // (?i:'s|'t|'re|'ve|'m|'ll|'d) at p (p holds the apostrophe); length matched or 0.
    size_t contraction(size_t p, bool case_insensitive) const {
        if (cp(p) != '\'' || p + 1 >= end)
            return 0;
        auto low = [&](uint32_t c) { return case_insensitive ? ascii_tolower(c) : c; };
        const uint32_t c1 = low(cp(p + 1));
        if (c1 == 's' || c1 == 't' || c1 == 'm' || c1 == 'd')
            return 2;
        if (p + 2 >= end)
            return 0;
        const uint32_t c2 = low(cp(p + 2));
        if ((c1 == 'r' && c2 == 'e') || (c1 == 'v' && c2 == 'e') || (c1 == 'l' && c2 == 'l'))
            return 3;
        return 0;
    }

    // \p{N}{1,max} repeated: digits in groups of at most `max_digits`. Returns the new position.
    size_t digit_groups(size_t pos, int max_digits) {
        size_t ini = pos;
        while (number(pos)) {
            if (++pos - ini >= static_cast<size_t>(max_digits)) {
                emit(pos);
                ini = pos;
            }
        }
        emit(pos);
        return pos;
    }

    // " ?[^\s\p{L}\p{N}]+" plus, when `trailing_newlines`, "[\r\n]*". Returns the new position
    // or `pos` when it does not match.
    size_t punctuation(size_t pos, bool trailing_newlines) {
        const size_t first = cp(pos) == ' ' ? pos + 1 : pos;
        if (!other(first))
            return pos;
        size_t p = first;
        while (other(p))
            ++p;
        if (trailing_newlines)
            while (crlf(p))
                ++p;
        emit(p);
        return p;
    }

    // The whitespace alternatives \s*[\r\n]+ (when `newline_runs`), \s+(?!\S), \s+. Returns
    // the new position or `pos` when there is no whitespace at pos.
    size_t whitespace(size_t pos, bool newline_runs) {
        size_t n = 0;
        size_t last_newline_end = 0;
        while (space(pos + n)) {
            if (crlf(pos + n))
                last_newline_end = pos + n + 1;
            ++n;
        }
        if (newline_runs && last_newline_end > 0) {
            emit(last_newline_end);
            return last_newline_end;
        }
        if (n > 1 && pos + n < end) { // a non-space follows: leave it the last space
            emit(pos + n - 1);
            return pos + n - 1;
        }
        if (n > 0) {
            emit(pos + n);
            return pos + n;
        }
        return pos;
    }
};

// Han as llama.cpp's Kimi-K2 splitter defines it: a fixed list of CJK ideograph blocks
// (not Unicode Script=Han: U+3005, U+3007 and the radicals U+2E80-2FDF, for example, are not
// Han here).
bool is_kimi_han(uint32_t c) {
    return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) ||
           (c >= 0x20000 && c <= 0x2A6DF) || (c >= 0x2A700 && c <= 0x2B73F) ||
           (c >= 0x2B740 && c <= 0x2B81F) || (c >= 0x2B820 && c <= 0x2CEAF) ||
           (c >= 0x2CEB0 && c <= 0x2EBEF) || (c >= 0xF900 && c <= 0xFAFF) ||
           (c >= 0x2F800 && c <= 0x2FA1F);
}

} // namespace

// 's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
void split_gpt2(const FragmentView& f, size_t begin, size_t end, Pieces& out) {
    Cursor c{f, begin, end, begin, out};
    size_t pos = begin;
    while (pos < end) {
        if (size_t n = c.contraction(pos, false)) {
            pos += n;
            c.emit(pos);
            continue;
        }
        const size_t first = c.cp(pos) == ' ' ? pos + 1 : pos;
        if (c.letter(first) || c.number(first)) {
            const bool letters = c.letter(first);
            pos = first;
            while (letters ? c.letter(pos) : c.number(pos))
                ++pos;
            c.emit(pos);
            continue;
        }
        if (size_t p = c.punctuation(pos, false); p != pos) {
            pos = p;
            continue;
        }
        if (size_t p = c.whitespace(pos, false); p != pos) {
            pos = p;
            continue;
        }
        c.emit(++pos);
    }
}

// (?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|
// \s*[\r\n]+|\s+(?!\S)|\s+        (Qwen2: \p{N} instead of \p{N}{1,3})
void split_llama3(const FragmentView& f, size_t begin, size_t end, int max_digits, Pieces& out) {
    Cursor c{f, begin, end, begin, out};
    size_t pos = begin;
    while (pos < end) {
        if (size_t n = c.contraction(pos, true)) {
            pos += n;
            c.emit(pos);
            continue;
        }
        if (!c.crlf(pos) && !c.number(pos) && (c.letter(pos) || c.letter(pos + 1))) {
            ++pos; // the optional leading character, or the first letter
            while (c.letter(pos))
                ++pos;
            c.emit(pos);
            continue;
        }
        if (c.number(pos)) {
            pos = c.digit_groups(pos, max_digits);
            continue;
        }
        if (size_t p = c.punctuation(pos, true); p != pos) {
            pos = p;
            continue;
        }
        if (size_t p = c.whitespace(pos, true); p != pos) {
            pos = p;
            continue;
        }
        c.emit(++pos);
    }
}

// kimi-k2 (llama.cpp's unicode_regex_split_custom_kimi_k2), in order: Han run; letter word
// (optional leading non-CR/LF/letter/digit character, non-Han letters, optional contraction);
// digits in threes; " ?" + other characters + CR/LF; whitespace; else one code point.
void split_kimi_k2(const FragmentView& f, size_t begin, size_t end, Pieces& out) {
    Cursor c{f, begin, end, begin, out};
    auto non_han_letter = [&](size_t p) { return c.letter(p) && !is_kimi_han(c.cp(p)); };
    size_t pos = begin;
    while (pos < end) {
        const uint32_t cp = f.cp[pos];
        if (is_kimi_han(cp)) {
            while (pos < end && is_kimi_han(f.cp[pos]))
                ++pos;
            c.emit(pos);
            continue;
        }
        const bool can_lead = !c.crlf(pos) && !c.letter(pos) && !c.number(pos);
        if (c.letter(pos) || (can_lead && non_han_letter(pos + 1))) {
            ++pos; // the leading character, or the first letter
            while (non_han_letter(pos))
                ++pos;
            pos += c.contraction(pos, true);
            c.emit(pos);
            continue;
        }
        if (c.number(pos)) {
            pos = c.digit_groups(pos, 3);
            continue;
        }
        if (size_t p = c.punctuation(pos, true); p != pos) {
            pos = p;
            continue;
        }
        if (size_t p = c.whitespace(pos, true); p != pos) {
            pos = p;
            continue;
        }
        c.emit(++pos);
    }
}

} // namespace folio::tokenizer
