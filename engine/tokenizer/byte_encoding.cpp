#include "tokenizer/byte_encoding.h"

#include "tokenizer/unicode.h"

#include <vector>

namespace folio::tokenizer {

std::string bytes_to_mapped(std::string_view bytes) {
    std::string out;
    out.reserve(bytes.size() * 2);
    for (char c : bytes)
        utf8_append(out, kByteToCp[static_cast<uint8_t>(c)]);
    return out;
}

std::string mapped_to_bytes(std::string_view mapped) {
    std::vector<uint32_t> cps;
    utf8_decode(mapped, cps);
    std::string out;
    out.reserve(cps.size());
    for (uint32_t cp : cps) {
        const int b = cp_to_byte(cp);
        if (b >= 0) {
            out += static_cast<char>(b);
            continue;
        }
        std::string utf8;
        utf8_append(utf8, cp);
        static const char* const kHex = "0123456789abcdef";
        out += "[UNK_BYTE_0x";
        for (char c : utf8) {
            out += kHex[static_cast<uint8_t>(c) >> 4];
            out += kHex[static_cast<uint8_t>(c) & 15];
        }
        out += mapped;
        out += ']';
    }
    return out;
}

} // namespace folio::tokenizer
