#include "tokenizer/unicode.h"

#include <algorithm>
#include <memory>

namespace folio::tokenizer {

namespace {

CpFlags lookup_flags(uint32_t cp) {
    CpFlags flags = 0;
    const UnicodeClassRange* begin = kUnicodeClassRanges;
    const UnicodeClassRange* end = kUnicodeClassRanges + kUnicodeClassRangeCount;
    const UnicodeClassRange* it = std::upper_bound(
        begin, end, cp, [](uint32_t c, const UnicodeClassRange& r) { return c < r.first; });
    if (it != begin && cp <= (it - 1)->last)
        flags = (it - 1)->cls;
    for (size_t i = 0; i < kWhitespaceRangeCount; ++i)
        if (cp >= kWhitespaceRanges[i].first && cp <= kWhitespaceRanges[i].last)
            flags |= kWhitespace;
    return flags;
}

// The Basic Multilingual Plane expanded once into a flat table (128 KiB, immutable after its
// thread-safe initialization); the other planes use a binary search over the ranges.
constexpr uint32_t kBmpSize = 0x10000;

const CpFlags* bmp_table() {
    static const std::unique_ptr<CpFlags[]> table = [] {
        auto t = std::make_unique<CpFlags[]>(kBmpSize);
        for (uint32_t cp = 0; cp < kBmpSize; ++cp)
            t[cp] = 0;
        for (size_t i = 0; i < kUnicodeClassRangeCount; ++i) {
            const UnicodeClassRange& r = kUnicodeClassRanges[i];
            for (uint32_t cp = r.first; cp <= r.last && cp < kBmpSize; ++cp)
                t[cp] = r.cls;
        }
        for (size_t i = 0; i < kWhitespaceRangeCount; ++i)
            for (uint32_t cp = kWhitespaceRanges[i].first;
                 cp <= kWhitespaceRanges[i].last && cp < kBmpSize; ++cp)
                t[cp] |= kWhitespace;
        return t;
    }();
    return table.get();
}

} // namespace

CpFlags cp_flags(uint32_t cp) {
    if (cp < kBmpSize)
        return bmp_table()[cp];
    if (cp > 0x10FFFF)
        return 0;
    return lookup_flags(cp);
}

void utf8_decode(std::string_view text, std::vector<uint32_t>& out) {
    const auto* s = reinterpret_cast<const uint8_t*>(text.data());
    const size_t n = text.size();
    size_t i = 0;
    auto cont = [&](size_t k) { return i + k < n && (s[i + k] & 0xC0) == 0x80; };
    while (i < n) {
        const uint8_t b = s[i];
        if (b < 0x80) {
            out.push_back(b);
            i += 1;
        } else if ((b & 0xE0) == 0xC0 && cont(1)) {
            out.push_back((uint32_t(b & 0x1F) << 6) | (s[i + 1] & 0x3F));
            i += 2;
        } else if ((b & 0xF0) == 0xE0 && cont(1) && cont(2)) {
            out.push_back((uint32_t(b & 0x0F) << 12) | (uint32_t(s[i + 1] & 0x3F) << 6) |
                          (s[i + 2] & 0x3F));
            i += 3;
        } else if ((b & 0xF8) == 0xF0 && cont(1) && cont(2) && cont(3)) {
            const uint32_t cp = (uint32_t(b & 0x07) << 18) | (uint32_t(s[i + 1] & 0x3F) << 12) |
                                (uint32_t(s[i + 2] & 0x3F) << 6) | (s[i + 3] & 0x3F);
            out.push_back(cp <= 0x10FFFF ? cp : kReplacementChar);
            i += 4;
        } else {
            out.push_back(kReplacementChar);
            i += 1;
        }
    }
}

void utf8_append(std::string& out, uint32_t cp) {
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp <= 0x10FFFF) {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        utf8_append(out, kReplacementChar);
    }
}

} // namespace folio::tokenizer
