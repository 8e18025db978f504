#pragma once
// Byte-level BPE tokenizer loaded from GGUF metadata (llama.cpp's src/llama-vocab.cpp),
// matching llama.cpp's `gpt2` vocabulary type token for token.
//
//   FOLIO_TRY(file, gguf::File::open(path));
//   FOLIO_TRY(tok, tokenizer::Tokenizer::from_gguf(*file));
//   FOLIO_TRY(ids, tok.encode(prompt, /*add_special=*/true, /*parse_special=*/true));
//
// A Tokenizer is immutable after loading: every const method may be called from several
// threads at once.

#include "folio/error.h"
#include "tokenizer/bpe.h"
#include "tokenizer/pre_tokenizer.h"
#include "tokenizer/special_tokens.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace folio::gguf {
class File;
}

namespace folio::tokenizer {

// `tokenizer.ggml.token_type` values (llama.cpp numbering, llama_token_type).
enum class TokenType : int32_t {
    Undefined = 0,
    Normal = 1,
    Unknown = 2,
    Control = 3,
    UserDefined = 4,
    Unused = 5,
    Byte = 6,
};

inline constexpr int32_t kNoToken = -1;

struct EncodeState; // per-call buffers and piece cache (tokenizer.cpp)

class Tokenizer {
public:
    // Reads the tokenizer.* keys of `file`. Errors (naming the key): model other than "gpt2",
    // unknown `pre`, missing tokens or merges, token_type of the wrong length.
    static Expected<Tokenizer> from_gguf(const gguf::File& file);

    // Tokenizes `text`: special-token partition (CONTROL/UNKNOWN tokens only with
    // `parse_special`), pre-tokenization, BPE. With `add_special`, bos is prepended when the
    // vocabulary's add_bos_token says so, and eos appended when add_eos_token says so.
    Expected<std::vector<int32_t>> encode(std::string_view text, bool add_special,
                                          bool parse_special) const;

    // The bytes of one token: NORMAL tokens decoded from the byte mapping, CONTROL and
    // UNKNOWN tokens their text only with `render_special`, USER_DEFINED their text, UNUSED /
    // BYTE / undefined nothing. An id outside the vocabulary is an InvalidArgument error.
    Expected<std::string> token_to_piece(int32_t id, bool render_special) const;
    // The concatenated pieces of `ids` (raw bytes; may end inside a UTF-8 sequence).
    Expected<std::string> decode(std::span<const int32_t> ids, bool render_special) const;

    size_t vocab_size() const { return texts_.size(); }
    size_t merge_count() const { return bpe_.merge_count(); }
    PreType pre_type() const { return pre_; }
    int32_t bos() const { return bos_; }
    int32_t eos() const { return eos_; }
    int32_t eot() const { return eot_; } // kNoToken when the vocabulary has none
    int32_t pad() const { return pad_; }
    int32_t unk() const { return unk_; }
    bool add_bos() const { return add_bos_; }
    bool add_eos() const { return add_eos_; }
    // End of generation: eos, eot and the tokens llama.cpp detects by text.
    bool is_eog(int32_t id) const;

    bool valid(int32_t id) const { return id >= 0 && static_cast<size_t>(id) < texts_.size(); }
    // Type after llama.cpp's automatic detection (EOG texts become CONTROL). Undefined for
    // invalid ids.
    TokenType token_type(int32_t id) const;
    // Stored token string (mapped form for NORMAL tokens, raw text for special ones). Empty
    // for invalid ids.
    const std::string& token_text(int32_t id) const;
    // Id of the token whose stored string is exactly `text`.
    std::optional<int32_t> find_token(std::string_view text) const;

    // `tokenizer.chat_template` (empty when absent).
    const std::string& chat_template() const { return chat_template_; }
    // Non-fatal remarks from loading (missing `pre`, out-of-range special ids, ...).
    const std::vector<std::string>& warnings() const { return warnings_; }

private:
    Tokenizer() = default;
    void encode_fragment(std::string_view text, EncodeState& st, std::vector<int32_t>& out) const;

    PreType pre_ = PreType::Default;
    bool ignore_merges_ = false; // llama-bpe: a piece that is a whole token is taken as is
    std::vector<std::string> texts_;
    std::vector<TokenType> types_;
    std::vector<std::string> pieces_; // bytes each token renders to (specials: their text)
    std::unordered_map<std::string, int32_t> text_to_id_;
    BpeModel bpe_;
    SpecialTokenMatcher specials_;
    int32_t bos_ = kNoToken, eos_ = kNoToken, eot_ = kNoToken, pad_ = kNoToken, unk_ = kNoToken;
    bool add_bos_ = false, add_eos_ = false;
    std::vector<int32_t> eog_; // sorted
    std::string chat_template_;
    std::vector<std::string> warnings_;
};

} // namespace folio::tokenizer
