#include "tokenizer/stream_decoder.h"

#include "tokenizer/tokenizer.h"

namespace folio::tokenizer {

namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";

// Valid range of the second byte after `lead` (RFC 3629: no overlongs, surrogates or values
// above U+10FFFF); other continuation bytes are 0x80-0xBF.
bool second_byte_ok(uint8_t lead, uint8_t b) {
    switch (lead) {
    case 0xE0:
        return b >= 0xA0 && b <= 0xBF;
    case 0xED:
        return b >= 0x80 && b <= 0x9F;
    case 0xF0:
        return b >= 0x90 && b <= 0xBF;
    case 0xF4:
        return b >= 0x80 && b <= 0x8F;
    default:
        return b >= 0x80 && b <= 0xBF;
    }
}

int sequence_length(uint8_t lead) {
    if (lead < 0x80)
        return 1;
    if (lead >= 0xC2 && lead <= 0xDF)
        return 2;
    if (lead >= 0xE0 && lead <= 0xEF)
        return 3;
    if (lead >= 0xF0 && lead <= 0xF4)
        return 4;
    return 0; // continuation byte, C0, C1, F5-FF: never valid as a lead
}

} // namespace

size_t take_complete_utf8(std::string_view bytes, bool final, std::string& out) {
    const auto* s = reinterpret_cast<const uint8_t*>(bytes.data());
    const size_t n = bytes.size();
    size_t i = 0;
    while (i < n) {
        const int len = sequence_length(s[i]);
        if (len == 0) {
            out += kReplacement;
            ++i;
            continue;
        }
        // How many bytes of the sequence are present and well-formed.
        int ok = 1;
        while (ok < len && i + ok < n &&
               (ok == 1 ? second_byte_ok(s[i], s[i + 1]) : (s[i + ok] & 0xC0) == 0x80))
            ++ok;
        if (ok == len) {
            out.append(bytes.substr(i, len));
            i += len;
        } else if (i + ok == n && !final) {
            break; // a valid prefix that the next token may complete
        } else {
            out += kReplacement; // a broken sequence: one U+FFFD, resume after its prefix
            i += ok;
        }
    }
    return i;
}

Expected<std::string> StreamDecoder::push(int32_t id) {
    FOLIO_TRY(piece, tokenizer_->token_to_piece(id, render_special_));
    pending_ += piece;
    std::string out;
    const size_t used = take_complete_utf8(pending_, false, out);
    pending_.erase(0, used);
    return out;
}

std::string StreamDecoder::finish() {
    std::string out;
    take_complete_utf8(pending_, true, out);
    pending_.clear();
    return out;
}

} // namespace folio::tokenizer
