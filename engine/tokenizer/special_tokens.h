#pragma once
// Special-token partition (llama.cpp's tokenizer_st_partition): before pre-tokenization the text is
// cut at exact occurrences of special-token strings. Tokens are taken longest first (ties by id);
// each claims its leftmost non-overlapping occurrences in the text that earlier tokens left
// unclaimed. CONTROL and UNKNOWN tokens take part only when the caller parses specials;
// USER_DEFINED tokens always do.
//
// Implemented in one scan (candidates indexed by their first two bytes) followed by the
// priority resolution above, which gives the same result as llama.cpp's one pass per token.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace folio::tokenizer {

struct SpecialToken {
    int32_t id;
    std::string text;
    bool always; // USER_DEFINED: matched even without special parsing
};

// A piece of the partitioned text: raw text [offset, offset + length) or one token.
struct Segment {
    size_t offset;
    size_t length;
    int32_t token; // -1 for raw text
};

class SpecialTokenMatcher {
public:
    SpecialTokenMatcher() = default;
    explicit SpecialTokenMatcher(std::vector<SpecialToken> tokens);

    // Cuts `text` into segments, in order (cleared first).
    void partition(std::string_view text, bool parse_special, std::vector<Segment>& out) const;

    size_t size() const { return tokens_.size(); }

private:
    std::vector<SpecialToken> tokens_;       // priority order: longest first, then by id
    std::vector<uint32_t> single_byte_[256]; // one-byte tokens by their byte
    std::vector<uint32_t> pair_start_;       // CSR index by first two bytes (65537 entries)
    std::vector<uint32_t> pair_items_;
    bool first_byte_[256] = {};
};

} // namespace folio::tokenizer
