#pragma once
// Pre-tokenizers of byte-level BPE vocabularies, chosen by `tokenizer.ggml.pre`
// (llama.cpp's src/llama-vocab.cpp and src/unicode.cpp). Each splits a run of code points into
// pieces that BPE then encodes independently. They are hand-written equivalents of the regexes
// llama.cpp applies: no regex engine is involved.

#include "folio/error.h"
#include "tokenizer/unicode.h"

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace folio::tokenizer {

enum class PreType {
    Default,    // "default": llama.cpp's fallback list of four regexes
    Gpt2,       // "gpt-2": the GPT-2 regex
    Llama3,     // "llama-bpe", "llama3", "llama-v3": Llama-3 regex (digits in threes)
    Qwen2,      // "qwen2", "deepseek-r1-qwen": Llama-3 regex with single digits
    DeepSeekV3, // "deepseek-v3": three regexes in sequence
    KimiK2,     // "kimi-k2": the tiktoken pattern as llama.cpp's custom splitter realizes it
};

// The pre-tokenizer named `name`; an unknown name is an Unsupported error naming it.
Expected<PreType> pre_type_from_name(std::string_view name);
std::string_view pre_type_name(PreType type);

// Piece lengths, in code points, in text order.
using Pieces = std::vector<uint32_t>;

// Reusable buffers of pre_tokenize (one per thread; avoids allocations per call).
struct PreTokenizeScratch {
    std::vector<CpFlags> flags;
    std::vector<uint8_t> classes;
    Pieces tmp;
};

// Splits `cps` (one raw-text fragment between special tokens) and appends the piece lengths to
// `out` (cleared first). The lengths sum to cps.size().
void pre_tokenize(PreType type, std::span<const uint32_t> cps, PreTokenizeScratch& scratch,
                  Pieces& out);

} // namespace folio::tokenizer
