#pragma once
// Streaming detokenization: fed token ids one at a time, it returns only
// complete UTF-8 characters, holding back the bytes of a character split across tokens until
// the rest arrives. Every string it returns is valid UTF-8: bytes that can never form a
// character become U+FFFD.
//
//   tokenizer::StreamDecoder dec(tok);
//   for (int32_t id : generated) { FOLIO_TRY(text, dec.push(id)); show(text); }
//   show(dec.finish());

#include "folio/error.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace folio::tokenizer {

class Tokenizer;

class StreamDecoder {
public:
    // `tokenizer` must outlive the decoder. `render_special`: CONTROL/UNKNOWN tokens show
    // their text.
    explicit StreamDecoder(const Tokenizer& tokenizer, bool render_special = false)
        : tokenizer_(&tokenizer), render_special_(render_special) {}

    // Text completed by `id` (often empty). An id outside the vocabulary is an error and
    // leaves the decoder unchanged.
    Expected<std::string> push(int32_t id);
    // Whatever is still held back, each incomplete sequence as U+FFFD; then starts afresh.
    std::string finish();
    // Drops held-back bytes.
    void reset() { pending_.clear(); }
    // Bytes held back (0-3).
    size_t pending_bytes() const { return pending_.size(); }

private:
    const Tokenizer* tokenizer_;
    bool render_special_;
    std::string pending_;
};

// Appends to `out` the complete UTF-8 characters at the start of `bytes`, invalid bytes as
// U+FFFD, and returns how many bytes it consumed: a valid but incomplete sequence at the end
// is left (when `final`, it is replaced by U+FFFD instead).
size_t take_complete_utf8(std::string_view bytes, bool final, std::string& out);

} // namespace folio::tokenizer
