#pragma once
// Turns sampled token ids into the text a user sees: complete UTF-8 only, stop strings cut
// out, and text that might still become a stop string held back until it is decided.

#include "folio/error.h"
#include "tokenizer/stream_decoder.h"
#include "tokenizer/tokenizer.h"

#include <string>
#include <vector>

namespace folio {

class OutputStream {
public:
    // `render_special`: CONTROL tokens show as their text (see StreamDecoder).
    OutputStream(const tokenizer::Tokenizer& tok, std::vector<std::string> stop_strings,
                 bool render_special = false);

    struct Step {
        std::string text;     // newly final text (may be empty)
        bool stopped = false; // a stop string completed: generation ends, text excludes it
    };
    // Adds one generated token.
    Expected<Step> push(int32_t id);
    // End of generation: everything still held back (incomplete UTF-8 as U+FFFD).
    std::string finish();
    // All final text so far.
    const std::string& text() const { return final_; }

private:
    tokenizer::StreamDecoder decoder_;
    std::vector<std::string> stops_;
    std::string pending_; // decoded but not yet final (a possible stop-string prefix)
    std::string final_;
};

} // namespace folio
