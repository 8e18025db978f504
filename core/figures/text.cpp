#include "core/figures/text.h"

namespace folio::figures {

std::u32string decode_utf8(std::string_view s) {
    std::u32string out;
    out.reserve(s.size());
    size_t i = 0;
    while (i < s.size()) {
        const auto b = static_cast<unsigned char>(s[i]);
        int extra = 0;
        char32_t c = 0;
        if (b < 0x80) {
            c = b;
        } else if ((b & 0xE0) == 0xC0) {
            c = b & 0x1F;
            extra = 1;
        } else if ((b & 0xF0) == 0xE0) {
            c = b & 0x0F;
            extra = 2;
        } else if ((b & 0xF8) == 0xF0) {
            c = b & 0x07;
            extra = 3;
        } else {
            out.push_back(0xFFFD);
            ++i;
            continue;
        }
        if (i + static_cast<size_t>(extra) >= s.size()) {
            out.push_back(0xFFFD);
            ++i;
            continue;
        }
        bool ok = true;
        for (int k = 1; ok && k <= extra; ++k) {
            const auto t = static_cast<unsigned char>(s[i + k]);
            if ((t & 0xC0) != 0x80)
                ok = false;
            else
                c = (c << 6) | (t & 0x3F);
        }
        if (!ok) {
            out.push_back(0xFFFD);
            ++i;
            continue;
        }
        out.push_back(c);
        i += 1 + extra;
    }
    return out;
}

std::string encode_utf8(std::u32string_view text) {
    std::string out;
    out.reserve(text.size());
    for (char32_t c : text) {
        if (c < 0x80) {
            out.push_back(static_cast<char>(c));
        } else if (c < 0x800) {
            out.push_back(static_cast<char>(0xC0 | (c >> 6)));
            out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
        } else if (c < 0x10000) {
            out.push_back(static_cast<char>(0xE0 | (c >> 12)));
            out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
            out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
        } else {
            out.push_back(static_cast<char>(0xF0 | (c >> 18)));
            out.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
            out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
            out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
        }
    }
    return out;
}

std::u32string normalize_for_numbers(std::u32string_view text) {
    std::u32string out(text);
    for (char32_t& c : out) {
        if (c >= 0xFF10 && c <= 0xFF19) // full-width digits
            c = U'0' + (c - 0xFF10);
        else if (c == 0xFF0E)
            c = U'.';
        else if (c == 0xFF0C)
            c = U',';
        else if (c == 0xFF05)
            c = U'%';
        else if (c == 0xFF0B)
            c = U'+';
        else if (c == 0xFF0D || c == 0x2212)
            c = U'-';
        else if (c == 0xFF08)
            c = U'(';
        else if (c == 0xFF09)
            c = U')';
        else if (c == 0xFF04)
            c = U'$';
        else if (c == 0xFFE5)
            c = U'¥';
        else if (c == 0xFF1A)
            c = U':';
        else if (c == 0x3000)
            c = U' ';
    }
    return out;
}

bool is_word_letter(char32_t c) {
    if (is_ascii_letter(c))
        return true;
    if (c >= 0xC0 && c <= 0x24F && c != 0xD7 && c != 0xF7)
        return true;
    return (c >= 0x370 && c <= 0x3FF) || (c >= 0x400 && c <= 0x4FF);
}

namespace {

bool ocr_letter(char32_t c) {
    return c == U'O' || c == U'o' || c == U'l' || c == U'I';
}

} // namespace

void repair_ocr_digits(std::u32string& text) {
    size_t i = 0;
    const size_t n = text.size();
    while (i < n) {
        if (!(is_digit(text[i]) || ocr_letter(text[i]))) {
            ++i;
            continue;
        }
        // A run of digits, confusable letters and inner separators.
        size_t j = i;
        bool digit = false, letter = false;
        while (j < n) {
            const char32_t c = text[j];
            if (is_digit(c)) {
                digit = true;
            } else if (ocr_letter(c)) {
                letter = true;
            } else if ((c == U',' || c == U'.') && j + 1 < n &&
                       (is_digit(text[j + 1]) || ocr_letter(text[j + 1])) && j > i) {
                // a separator between two run characters
            } else {
                break;
            }
            ++j;
        }
        const bool bounded =
            (i == 0 || !is_word_letter(text[i - 1])) && (j >= n || !is_word_letter(text[j]));
        if (digit && letter && bounded) {
            for (size_t k = i; k < j; ++k) {
                if (text[k] == U'O' || text[k] == U'o')
                    text[k] = U'0';
                else if (text[k] == U'l' || text[k] == U'I')
                    text[k] = U'1';
            }
        }
        i = j;
    }
}

bool starts_with_ci(std::u32string_view text, size_t pos, std::u32string_view word) {
    if (pos + word.size() > text.size())
        return false;
    for (size_t k = 0; k < word.size(); ++k)
        if (ascii_lower(text[pos + k]) != ascii_lower(word[k]))
            return false;
    return true;
}

bool word_at(std::u32string_view text, size_t pos, std::u32string_view word) {
    return starts_with_ci(text, pos, word) &&
           (pos + word.size() >= text.size() || !is_word_letter(text[pos + word.size()]));
}

std::string collapse_spaces(std::string_view text) {
    std::string out;
    bool space = false;
    for (char c : text) {
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            space = !out.empty();
            continue;
        }
        if (space)
            out.push_back(' ');
        space = false;
        out.push_back(c);
    }
    return out;
}

char32_t simple_lower(char32_t c) {
    if (c < 0x80)
        return ascii_lower(c);
    if (c >= 0xC0 && c <= 0xDE && c != 0xD7) // À..Þ except ×
        return c + 0x20;
    if (c >= 0x100 && c <= 0x137 && c % 2 == 0) // Ā..ķ: capital, small in pairs
        return c + 1;
    if (c >= 0x139 && c <= 0x148 && c % 2 == 1) // Ĺ..ň
        return c + 1;
    if (c >= 0x14A && c <= 0x177 && c % 2 == 0) // Ŋ..ŷ
        return c + 1;
    if (c == 0x178) // Ÿ
        return 0xFF;
    if ((c == 0x179 || c == 0x17B || c == 0x17D)) // Ź Ż Ž
        return c + 1;
    if (c >= 0x391 && c <= 0x3AB && c != 0x3A2) // Greek capitals
        return c + 0x20;
    if (c >= 0x410 && c <= 0x42F) // Cyrillic А..Я
        return c + 0x20;
    if (c >= 0x400 && c <= 0x40F) // Ѐ..Џ
        return c + 0x50;
    return c;
}

} // namespace folio::figures
