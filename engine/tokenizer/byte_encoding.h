#pragma once
// GPT-2 byte-level encoding (llama.cpp's src/unicode.cpp): every byte maps to one code point so
// that token strings are printable. Bytes 0x21-0x7E, 0xA1-0xAC and 0xAE-0xFF map to themselves; the
// other 68 bytes, in increasing order, to U+0100, U+0101, ... (space -> U+0120 'Ġ').

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace folio::tokenizer {

constexpr bool byte_maps_to_itself(uint32_t b) {
    return (b >= 0x21 && b <= 0x7E) || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
}

constexpr std::array<uint32_t, 256> make_byte_to_cp() {
    std::array<uint32_t, 256> t{};
    uint32_t next = 0x100;
    for (uint32_t b = 0; b < 256; ++b)
        t[b] = byte_maps_to_itself(b) ? b : next++;
    return t;
}

inline constexpr std::array<uint32_t, 256> kByteToCp = make_byte_to_cp();

// The byte a mapped code point stands for, or -1 when `cp` is not in the table.
constexpr int cp_to_byte(uint32_t cp) {
    if (cp < 0x100)
        return byte_maps_to_itself(cp) ? static_cast<int>(cp) : -1;
    if (cp >= 0x100 + 68)
        return -1;
    uint32_t k = cp - 0x100; // k-th byte that does not map to itself
    for (uint32_t b = 0; b < 256; ++b)
        if (!byte_maps_to_itself(b) && k-- == 0)
            return static_cast<int>(b);
    return -1;
}

// The mapped form (UTF-8) of raw bytes, as token strings store them.
std::string bytes_to_mapped(std::string_view bytes);

// The raw bytes of a NORMAL token: each code point of the mapped string back to its
// byte; a code point outside the table renders as "[UNK_BYTE_0x<utf8 hex><token text>]" as
// llama.cpp writes it.
std::string mapped_to_bytes(std::string_view mapped);

} // namespace folio::tokenizer
