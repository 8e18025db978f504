#pragma once
// Helpers of the tokenizer tests: loading vocabularies, the conformance jsonl files, random
// Unicode text, a strict UTF-8 check and small hand-made GGUF vocabularies.

#include "tokenizer/tokenizer.h"

#include <QString>

#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace folio::test {

// Loads the tokenizer of a GGUF file; fails the test (returns nullopt) on error.
std::optional<tokenizer::Tokenizer> load_tokenizer(const QString& path);

// The conformance folder's two vocabularies, each loaded on first need into `tiny`
// (ds2-qlora-f32.gguf: tiny vocabulary, pre kimi-k2) and `ds3` (deepseek-v3-vocab.gguf: real
// vocabulary, pre deepseek-v3); false when `conf` is empty or either fails to load.
bool need_vocabs(const QString& conf, std::optional<tokenizer::Tokenizer>& tiny,
                 std::optional<tokenizer::Tokenizer>& ds3);

// The ids of `text`; empty (with a warning) on error.
std::vector<int32_t> encode_or_fail(const tokenizer::Tokenizer& tok, const std::string& text,
                                    bool add_special, bool parse_special);

struct TokenizerCase {
    std::string id;
    std::string text;
    std::vector<int32_t> parse_special;
    std::vector<int32_t> no_parse_special;
};

// texts.jsonl joined with an ids file (tiny-vocab-ids.jsonl, deepseek-v3-ids.jsonl).
std::vector<TokenizerCase> read_tokenizer_cases(const QString& dir, const QString& ids_file);

// A JSON file of the conformance folder as a QVariant tree (map/list/number/string).
QVariant read_json(const QString& path);
std::vector<int32_t> to_ids(const QVariant& list);

// Random text from many planes and categories: ASCII, Latin with combining marks, Greek,
// Cyrillic, Arabic, Devanagari, Thai, Han (BMP and plane 2), kana, Hangul, emoji with ZWJ and
// variation selectors, symbols, digits, whitespace runs with CR LF, non-ASCII spaces.
std::string random_unicode_text(std::mt19937& rng, size_t max_code_points);

// Strict UTF-8 (no overlongs, surrogates or values above U+10FFFF, nothing truncated).
bool is_valid_utf8(const std::string& s);

// Writes a vocabulary-only GGUF: the 256 byte tokens, then `extra` tokens (NORMAL), merges,
// and the given tokenizer.ggml.pre (none when empty).
std::string write_vocab_gguf(const QString& dir, const std::string& pre,
                             const std::vector<std::string>& extra_tokens,
                             const std::vector<std::string>& merges);

std::string ids_to_string(const std::vector<int32_t>& ids);

} // namespace folio::test
