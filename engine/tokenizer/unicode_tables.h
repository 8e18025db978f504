#pragma once
// The generated Unicode tables (unicode_tables.cpp, made by tools/unicode/gen_unicode_tables.py
// from the Unicode Character Database): general-category classes and White_Space as sorted,
// non-overlapping code point ranges. Use them through unicode.h.

#include <cstddef>
#include <cstdint>

namespace folio::tokenizer {

// One bit per class: the first letter of the Unicode general category, as llama.cpp groups
// them (src/unicode.cpp). Unassigned code points have none of these bits ("undefined").
enum UnicodeClass : uint8_t {
    kNumber = 0x01,      // \p{N}
    kLetter = 0x02,      // \p{L}
    kSeparator = 0x04,   // \p{Z}
    kMark = 0x08,        // \p{M}
    kPunctuation = 0x10, // \p{P}
    kSymbol = 0x20,      // \p{S}
    kControl = 0x40,     // \p{C} without Cn (Cc Cf Co Cs)
};

struct UnicodeClassRange {
    uint32_t first;
    uint32_t last; // inclusive
    uint8_t cls;   // one UnicodeClass bit
};

struct CodepointRange {
    uint32_t first;
    uint32_t last; // inclusive
};

extern const char* const kUnicodeTablesVersion;
extern const UnicodeClassRange kUnicodeClassRanges[];
extern const size_t kUnicodeClassRangeCount;
extern const CodepointRange kWhitespaceRanges[];
extern const size_t kWhitespaceRangeCount;

} // namespace folio::tokenizer
