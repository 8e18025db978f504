// The regex-list pre-tokenizers ("deepseek-v3", "default") as hand-written matchers with the
// semantics llama.cpp gives them (src/unicode.cpp): each regex is applied in turn to every
// current piece; inside a piece its leftmost non-overlapping matches become pieces and so do
// the unmatched stretches between them. Category classes (\p{L} ...) follow llama.cpp's
// "collapsed" evaluation: an ASCII code point belongs to the ASCII members listed there, a
// non-ASCII one to its Unicode class, except that non-ASCII whitespace only counts as \s.
#include "tokenizer/pretok_splitters.h"

#include <cstring>

namespace folio::tokenizer {

namespace {

enum CollapsedClass : uint8_t {
    cL = 0x01,    // \p{L}: A-Za-z, non-ASCII letters
    cN = 0x02,    // \p{N}: 0-9, non-ASCII numbers
    cP = 0x04,    // \p{P}: !"#%&'()*,-./:;?@[\]_{} , non-ASCII punctuation
    cS = 0x08,    // \p{S}: $+<=>^`| (llama.cpp's ASCII list has no '~'), non-ASCII symbols
    cM = 0x10,    // \p{M}: non-ASCII marks only
    cSpace = 0x20 // \s: \t \n \v \f \r space, non-ASCII White_Space
};

bool ascii_alpha(uint32_t c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

bool ascii_in(uint32_t c, const char* set) {
    return c != 0 && c < 128 && std::strchr(set, static_cast<int>(c)) != nullptr;
}

uint8_t collapsed_class(uint32_t c, CpFlags f) {
    if (c < 128) {
        if (ascii_alpha(c))
            return cL;
        if (c >= '0' && c <= '9')
            return cN;
        if (c == ' ' || (c >= '\t' && c <= '\r'))
            return cSpace;
        if (ascii_in(c, "!\"#%&'()*,-./:;?@[\\]_{}"))
            return cP;
        if (ascii_in(c, "$+<=>^`|"))
            return cS;
        return 0;
    }
    if (f & kWhitespace)
        return cSpace;
    if (f & kLetter)
        return cL;
    if (f & kNumber)
        return cN;
    if (f & kPunctuation)
        return cP;
    if (f & kSymbol)
        return cS;
    if (f & kMark)
        return cM;
    return 0;
}

// Applies a matcher (match(pos, end) -> length, 0 = no match at pos) to every piece of `in`,
// writing the refined pieces to `out`.
template <typename Match> void apply_regex(const Pieces& in, Pieces& out, Match match) {
    out.clear();
    size_t start = 0;
    for (uint32_t len : in) {
        const size_t end = start + len;
        size_t pos = start;
        size_t last = start; // end of the previous match
        while (pos < end) {
            const size_t n = match(pos, end);
            if (n == 0) {
                ++pos;
                continue;
            }
            if (pos > last)
                out.push_back(static_cast<uint32_t>(pos - last));
            out.push_back(static_cast<uint32_t>(n));
            pos += n;
            last = pos;
        }
        if (end > last)
            out.push_back(static_cast<uint32_t>(end - last));
        start = end;
    }
}

// Length of the run of code points from `pos` (before `end`) whose class has a bit of `mask`.
size_t class_run(const uint8_t* cls, size_t pos, size_t end, uint8_t mask) {
    size_t p = pos;
    while (p < end && (cls[p] & mask))
        ++p;
    return p - pos;
}

bool deepseek_kana_or_han(uint32_t c) {
    return (c >= 0x4E00 && c <= 0x9FA5) || (c >= 0x3040 && c <= 0x309F) ||
           (c >= 0x30A0 && c <= 0x30FF);
}

// deepseek-v3 regex 3:
//   [!"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~][A-Za-z]+ | [^\r\n\p{L}\p{P}\p{S}]?[\p{L}\p{M}]+ |
//    ?[\p{P}\p{S}]+[\r\n]* | \s*[\r\n]+ | \s+(?!\S) | \s+
size_t match_deepseek_words(const FragmentView& f, size_t pos, size_t end) {
    const uint32_t* cp = f.cp;
    const uint8_t* cls = f.cls;
    const uint32_t c = cp[pos];
    auto crlf = [&](size_t p) { return cp[p] == '\r' || cp[p] == '\n'; };

    // ASCII punctuation or symbol, then ASCII letters.
    const bool ascii_punct = (c >= 0x21 && c <= 0x2F) || (c >= 0x3A && c <= 0x40) ||
                             (c >= 0x5B && c <= 0x60) || (c >= 0x7B && c <= 0x7E);
    if (ascii_punct && pos + 1 < end && ascii_alpha(cp[pos + 1])) {
        size_t p = pos + 2;
        while (p < end && ascii_alpha(cp[p]))
            ++p;
        return p - pos;
    }
    // Optional leading character, then letters and marks.
    const bool can_lead = !crlf(pos) && (cls[pos] & (cL | cP | cS)) == 0;
    if (can_lead && pos + 1 < end && (cls[pos + 1] & (cL | cM)))
        return 1 + class_run(cls, pos + 1, end, cL | cM);
    if (cls[pos] & (cL | cM))
        return class_run(cls, pos, end, cL | cM);
    // Optional space, punctuation and symbols, then CR/LF.
    {
        size_t p = (c == ' ' && pos + 1 < end && (cls[pos + 1] & (cP | cS))) ? pos + 1 : pos;
        if (cls[p] & (cP | cS)) {
            p += class_run(cls, p, end, cP | cS);
            while (p < end && crlf(p))
                ++p;
            return p - pos;
        }
    }
    // Whitespace: up to the last CR/LF of the run; else the run, less its last character when
    // a non-space follows and the run is longer than one.
    size_t n = 0;
    size_t newline_end = 0;
    while (pos + n < end && (cls[pos + n] & cSpace)) {
        if (crlf(pos + n))
            newline_end = n + 1;
        ++n;
    }
    if (newline_end > 0)
        return newline_end;
    if (n > 0 && pos + n < end)
        return n > 1 ? n - 1 : 1;
    return n;
}

} // namespace

void collapse_classes(const uint32_t* cp, const CpFlags* flags, size_t n, uint8_t* cls) {
    for (size_t i = 0; i < n; ++i)
        cls[i] = collapsed_class(cp[i], flags[i]);
}

// deepseek-v3: \p{N}{1,3}; then [\x{4E00}-\x{9FA5}\x{3040}-\x{309F}\x{30A0}-\x{30FF}]+;
// then match_deepseek_words.
void split_deepseek_v3(const FragmentView& f, size_t n, Pieces& tmp, Pieces& out) {
    out.assign(1, static_cast<uint32_t>(n));
    apply_regex(out, tmp, [&](size_t pos, size_t end) {
        const size_t run = class_run(f.cls, pos, end, cN);
        return run < 3 ? run : 3;
    });
    apply_regex(tmp, out, [&](size_t pos, size_t end) {
        size_t p = pos;
        while (p < end && deepseek_kana_or_han(f.cp[p]))
            ++p;
        return p - pos;
    });
    tmp.swap(out);
    apply_regex(tmp, out,
                [&](size_t pos, size_t end) { return match_deepseek_words(f, pos, end); });
}

// default (llama.cpp's list for an unnamed pre-tokenizer): [\p{P}\$\+<=>\^~\|]+; the GPT-2
// pattern (custom splitter); \p{N}+; [0-9][0-9][0-9].
void split_default(const FragmentView& f, size_t n, Pieces& tmp, Pieces& out) {
    out.assign(1, static_cast<uint32_t>(n));
    apply_regex(out, tmp, [&](size_t pos, size_t end) {
        size_t p = pos;
        while (p < end && ((f.cls[p] & cP) || ascii_in(f.cp[p], "$+<=>^~|")))
            ++p;
        return p - pos;
    });
    out.clear();
    size_t start = 0;
    for (uint32_t len : tmp) {
        split_gpt2(f, start, start + len, out);
        start += len;
    }
    apply_regex(out, tmp, [&](size_t pos, size_t end) { return class_run(f.cls, pos, end, cN); });
    apply_regex(tmp, out, [&](size_t pos, size_t end) -> size_t {
        auto digit = [&](size_t p) { return p < end && f.cp[p] >= '0' && f.cp[p] <= '9'; };
        return digit(pos) && digit(pos + 1) && digit(pos + 2) ? 3 : 0;
    });
}

} // namespace folio::tokenizer
