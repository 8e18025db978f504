#pragma once
// A small byte-level BPE vocabulary (tokenizer.ggml.model = "gpt2", pre "kimi-k2") for
// generated models, laid out like the conformance models' vocabulary: ids 0-255 are the bytes
// (GPT-2 byte-to-unicode mapping), then the learned merges, then the Kimi
// special tokens (CONTROL), then "[PAD{id}]" UNUSED entries up to the requested size.

#include <cstdint>
#include <string>
#include <vector>

namespace folio::tools {

struct Vocab {
    std::vector<std::string> tokens;
    std::vector<int32_t> token_types; // 1 normal, 3 control, 5 unused (llama.cpp numbering)
    std::vector<std::string> merges;  // "left right", in rank order
    uint32_t bos_id = 0, eos_id = 0, pad_id = 0, unk_id = 0;
};

// The GPT-2 byte -> code point map as UTF-8 strings, indexed by byte.
const std::vector<std::string>& byte_to_unicode_table();

// Learns up to `n_merges` merges on a built-in English/finance text, then appends specials and
// padding to `vocab_size` entries (which must leave room: 256 + merges + 13 specials).
Vocab build_tiny_vocab(uint32_t vocab_size, uint32_t n_merges);

} // namespace folio::tools
