// Tokenizer: encode any bytes (special-token parsing on and off) with a real vocabulary, decode
// the ids back, and decode arbitrary id lists: errors are fine, crashes and hangs are not; valid
// UTF-8 text survives encode → decode unchanged.
#include "fuzz_support.h"
#include "gguf/gguf_file.h"
#include "tokenizer/tokenizer.h"

#include <cstring>
#include <memory>
#include <optional>
#include <vector>

namespace {

const folio::tokenizer::Tokenizer* vocab() {
    static std::optional<folio::tokenizer::Tokenizer> tok = [] {
        std::optional<folio::tokenizer::Tokenizer> t;
        auto f = folio::gguf::File::open(folio::fuzz::conformance_dir() +
                                         "/tokenizer/deepseek-v3-vocab.gguf");
        if (f)
            if (auto k = folio::tokenizer::Tokenizer::from_gguf(**f))
                t.emplace(std::move(*k));
        return t;
    }();
    return tok ? &*tok : nullptr;
}

// Strict UTF-8 (RFC 3629 table 3-7: no overlongs, no surrogates, nothing above U+10FFFF).
bool valid_utf8(const uint8_t* s, size_t n) {
    for (size_t i = 0; i < n;) {
        const uint8_t c = s[i];
        if (c < 0x80) {
            ++i;
            continue;
        }
        size_t len;
        uint8_t lo = 0x80, hi = 0xBF;
        if (c >= 0xC2 && c <= 0xDF)
            len = 2;
        else if (c >= 0xE0 && c <= 0xEF) {
            len = 3;
            if (c == 0xE0)
                lo = 0xA0;
            if (c == 0xED)
                hi = 0x9F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            len = 4;
            if (c == 0xF0)
                lo = 0x90;
            if (c == 0xF4)
                hi = 0x8F;
        } else
            return false;
        if (i + len > n || s[i + 1] < lo || s[i + 1] > hi)
            return false;
        for (size_t k = 2; k < len; ++k)
            if ((s[i + k] & 0xC0) != 0x80)
                return false;
        i += len;
    }
    return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const folio::tokenizer::Tokenizer* tok = vocab();
    if (!tok || size > 4096)
        return 0;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    for (bool special : {false, true}) {
        auto ids = tok->encode(text, false, special);
        if (!ids)
            continue;
        auto back = tok->decode(*ids, special);
        if (!special && back && valid_utf8(data, size) && *back != text)
            __builtin_trap(); // lossless round trip of plain text
    }
    std::vector<int32_t> raw(size / 4);
    if (!raw.empty()) {
        std::memcpy(raw.data(), data, raw.size() * 4);
        (void)tok->decode(raw, true);
    }
    return 0;
}
