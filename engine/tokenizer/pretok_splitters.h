#pragma once
// The individual splitters behind pre_tokenize (pre_tokenizer.h). Each handles the code points
// [begin, end) of a fragment and appends piece lengths to `out`; like the regex they replace,
// it sees nothing outside [begin, end) (a lookahead at `end` finds end of text).

#include "tokenizer/pre_tokenizer.h"

namespace folio::tokenizer {

struct FragmentView {
    const uint32_t* cp;   // code points
    const CpFlags* flags; // cp_flags of each
    const uint8_t* cls;   // collapsed classes (pretok_regex.cpp), when the splitter uses them
};

// Custom splitters (pretok_custom.cpp), llama.cpp's hand-written ones: GPT-2; Llama-3 / Qwen2
// (`max_digits` 3 / 1); Kimi-K2.
void split_gpt2(const FragmentView& f, size_t begin, size_t end, Pieces& out);
void split_llama3(const FragmentView& f, size_t begin, size_t end, int max_digits, Pieces& out);
void split_kimi_k2(const FragmentView& f, size_t begin, size_t end, Pieces& out);

// Regex-list pre-tokenizers (pretok_regex.cpp) with llama.cpp's "collapsed category"
// semantics; `cls` must be filled by collapse_classes first.
void collapse_classes(const uint32_t* cp, const CpFlags* flags, size_t n, uint8_t* cls);
void split_deepseek_v3(const FragmentView& f, size_t n, Pieces& tmp, Pieces& out);
void split_default(const FragmentView& f, size_t n, Pieces& tmp, Pieces& out);

} // namespace folio::tokenizer
