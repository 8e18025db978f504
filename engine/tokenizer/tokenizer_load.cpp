// Tokenizer::from_gguf: the tokenizer.* keys and llama.cpp's defaults and
// automatic special-token detection (src/llama-vocab.cpp, llama_vocab::impl::load).
#include "tokenizer/tokenizer.h"

#include "gguf/gguf_file.h"
#include "tokenizer/byte_encoding.h"

#include <algorithm>
#include <array>

namespace folio::tokenizer {

namespace {

// Texts llama.cpp takes as end-of-turn (the first found is the eot id) ...
constexpr std::array<std::string_view, 11> kEotTexts = {
    "<|eot_id|>",        "<|im_end|>", "<|end|>", "<end_of_turn>", "<|endoftext|>",
    "<|end_of_text|>",   "<EOT>",      "_<EOT>",  "[EOT]",         "<｜end▁of▁sentence｜>",
    "<end_of_utterance>"};
// ... as end of generation ...
constexpr std::array<std::string_view, 14> kEogTexts = {
    "<|eot_id|>",      "<|im_end|>",        "<|end|>", "<|return|>", "<|call|>", "<end_of_turn>",
    "<|endoftext|>",   "<|eom_id|>",        "<EOT>",   "_<EOT>",     "[EOT]",    "[EOS]",
    "<|end_of_text|>", "<end_of_utterance>"};
// ... and as fill-in-the-middle padding, which is also end of generation.
constexpr std::array<std::string_view, 5> kFimPadTexts = {"<|fim_pad|>", "<fim-pad>", "<fim_pad>",
                                                          "<PAD>", "[PAD]"};

template <size_t N> bool in(const std::array<std::string_view, N>& list, std::string_view s) {
    return std::find(list.begin(), list.end(), s) != list.end();
}

TokenType token_type_from(int64_t v) {
    switch (v) {
    case 1:
        return TokenType::Normal;
    case 2:
        return TokenType::Unknown;
    case 3:
        return TokenType::Control;
    case 4:
        return TokenType::UserDefined;
    case 5:
        return TokenType::Unused;
    case 6:
        return TokenType::Byte;
    default:
        return TokenType::Undefined;
    }
}

} // namespace

Expected<Tokenizer> Tokenizer::from_gguf(const gguf::File& file) {
    Tokenizer t;
    const std::string where = file.path() + ": ";

    FOLIO_TRY(model, file.get_string("tokenizer.ggml.model"));
    if (!model)
        return make_error(ErrorCode::NotFound, where + "tokenizer.ggml.model is missing");
    if (*model != "gpt2")
        return make_error(ErrorCode::Unsupported, where + "tokenizer.ggml.model '" + *model +
                                                      "' is not supported (only 'gpt2', "
                                                      "byte-level BPE)");

    FOLIO_TRY(pre, file.get_string("tokenizer.ggml.pre"));
    if (pre) {
        auto type = pre_type_from_name(*pre);
        if (!type)
            return make_error(type.error().code, where + type.error().message);
        t.pre_ = *type;
    } else {
        t.pre_ = PreType::Default;
        t.warnings_.push_back("tokenizer.ggml.pre is missing: using the 'default' pre-tokenizer");
    }
    t.ignore_merges_ = t.pre_ == PreType::Llama3;

    FOLIO_TRY(tokens, file.get_string_array("tokenizer.ggml.tokens"));
    if (!tokens || tokens->empty())
        return make_error(ErrorCode::NotFound, where + "tokenizer.ggml.tokens is missing or empty");
    t.texts_ = std::move(*tokens);
    const size_t n = t.texts_.size();
    if (n > static_cast<size_t>(INT32_MAX))
        return make_error(ErrorCode::Format, where + "tokenizer.ggml.tokens: too many tokens");

    t.types_.assign(n, TokenType::Normal);
    FOLIO_TRY(types, file.get_int_array("tokenizer.ggml.token_type"));
    if (types) {
        if (types->size() != n)
            return make_error(ErrorCode::Format, where + "tokenizer.ggml.token_type has " +
                                                     std::to_string(types->size()) +
                                                     " entries for " + std::to_string(n) +
                                                     " tokens");
        for (size_t i = 0; i < n; ++i)
            t.types_[i] = token_type_from((*types)[i]);
    }

    t.text_to_id_.reserve(n);
    for (size_t i = 0; i < n; ++i)
        t.text_to_id_[t.texts_[i]] = static_cast<int32_t>(i); // a later duplicate wins

    FOLIO_TRY(merges, file.get_string_array("tokenizer.ggml.merges"));
    if (!merges && t.pre_ != PreType::KimiK2)
        return make_error(ErrorCode::NotFound, where + "tokenizer.ggml.merges is missing");
    t.bpe_ = BpeModel::build(t.text_to_id_, merges ? *merges : std::vector<std::string>{});

    // Special ids: gpt2 defaults bos = eos = 11; ids outside the vocabulary are ignored.
    auto read_id = [&](const char* key, int32_t& id) -> Status {
        FOLIO_TRY(v, file.get_u32(key));
        if (!v)
            return {};
        if (*v >= n) {
            t.warnings_.push_back(std::string(key) + " = " + std::to_string(*v) +
                                  " is outside the vocabulary: ignored");
            return {};
        }
        id = static_cast<int32_t>(*v);
        return {};
    };
    t.bos_ = 11;
    t.eos_ = 11;
    int32_t eom = kNoToken;
    FOLIO_CHECK(read_id("tokenizer.ggml.bos_token_id", t.bos_));
    FOLIO_CHECK(read_id("tokenizer.ggml.eos_token_id", t.eos_));
    FOLIO_CHECK(read_id("tokenizer.ggml.eot_token_id", t.eot_));
    FOLIO_CHECK(read_id("tokenizer.ggml.eom_token_id", eom));
    FOLIO_CHECK(read_id("tokenizer.ggml.unknown_token_id", t.unk_));
    FOLIO_CHECK(read_id("tokenizer.ggml.padding_token_id", t.pad_));
    if (!t.valid(t.bos_))
        t.bos_ = kNoToken;
    if (!t.valid(t.eos_))
        t.eos_ = kNoToken;

    t.add_bos_ = t.pre_ == PreType::Llama3;
    FOLIO_TRY(add_bos, file.get_bool("tokenizer.ggml.add_bos_token"));
    if (add_bos)
        t.add_bos_ = *add_bos;
    FOLIO_TRY(add_eos, file.get_bool("tokenizer.ggml.add_eos_token"));
    if (add_eos)
        t.add_eos_ = *add_eos;

    // Automatic detection: end-of-turn / end-of-generation / FIM-pad texts become
    // CONTROL tokens and end generation. Scanned in id order, so "first found" is the lowest id.
    std::vector<int32_t> eog;
    for (size_t i = 0; i < n; ++i) {
        const std::string& s = t.texts_[i];
        const auto id = static_cast<int32_t>(i);
        const bool eot = in(kEotTexts, s);
        const bool eog_text = in(kEogTexts, s) || in(kFimPadTexts, s);
        if (eot && t.eot_ == kNoToken)
            t.eot_ = id;
        if (eot || eog_text)
            t.types_[i] = TokenType::Control;
        if (eog_text)
            eog.push_back(id);
    }
    for (int32_t id : {t.eos_, t.eot_, eom})
        if (id != kNoToken)
            eog.push_back(id);
    std::sort(eog.begin(), eog.end());
    eog.erase(std::unique(eog.begin(), eog.end()), eog.end());
    t.eog_ = std::move(eog);

    // What each token renders to and the special-token partition.
    t.pieces_.resize(n);
    std::vector<SpecialToken> specials;
    for (size_t i = 0; i < n; ++i) {
        switch (t.types_[i]) {
        case TokenType::Normal:
            t.pieces_[i] = mapped_to_bytes(t.texts_[i]);
            break;
        case TokenType::Control:
        case TokenType::Unknown:
        case TokenType::UserDefined:
            t.pieces_[i] = t.texts_[i];
            specials.push_back(
                {static_cast<int32_t>(i), t.texts_[i], t.types_[i] == TokenType::UserDefined});
            break;
        default:
            break; // UNUSED, BYTE, undefined: nothing
        }
    }
    t.specials_ = SpecialTokenMatcher(std::move(specials));

    FOLIO_TRY(tmpl, file.get_string("tokenizer.chat_template"));
    if (tmpl)
        t.chat_template_ = std::move(*tmpl);
    return t;
}

} // namespace folio::tokenizer
