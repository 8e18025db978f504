#pragma once
// Unicode helpers of the tokenizer: lenient UTF-8 decoding as llama.cpp does it, UTF-8
// encoding, and the character classes the pre-tokenizers test (as llama.cpp's src/unicode.cpp).

#include "tokenizer/unicode_tables.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace folio::tokenizer {

inline constexpr uint32_t kReplacementChar = 0xFFFD;

// Class bits of a code point (UnicodeClass) plus kWhitespace when it has the White_Space
// property. 0 means "unassigned"; every code point in range has a defined answer.
using CpFlags = uint16_t;
inline constexpr CpFlags kWhitespace = 0x100;

CpFlags cp_flags(uint32_t cp);

// Decodes UTF-8 to code points: a byte that does not start a well-formed sequence
// (bad lead byte, missing continuation byte, truncated) becomes U+FFFD and skips one byte.
// Like llama.cpp, overlong forms and surrogates are accepted as decoded; values above
// U+10FFFF become U+FFFD.
void utf8_decode(std::string_view text, std::vector<uint32_t>& out);

// Appends the UTF-8 encoding of `cp` (U+FFFD for values above U+10FFFF).
void utf8_append(std::string& out, uint32_t cp);

// Lower-case of an ASCII letter, every other code point unchanged (the contractions of the
// splitters compare against ASCII letters only).
inline uint32_t ascii_tolower(uint32_t cp) {
    return (cp >= 'A' && cp <= 'Z') ? cp + ('a' - 'A') : cp;
}

} // namespace folio::tokenizer
