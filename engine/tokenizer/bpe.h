#pragma once
// Byte-level BPE merging of one pre-tokenized piece, as llama.cpp's llm_tokenizer_bpe
// (src/llama-vocab.cpp) does it. Every string that can occur as a symbol (the 256 byte
// characters and each merge's left, right and result) is interned once at load; merge ranks
// live in a hash table keyed by the pair of symbol ids, so the merge loop compares integers,
// never strings.

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace folio::tokenizer {

// Reusable buffers of BpeModel::encode_piece.
struct BpeScratch {
    struct Symbol {
        int32_t id;   // interned symbol, -1 once merged into its left neighbour
        int32_t prev; // index of the previous live symbol, -1 at the start
        int32_t next; // index of the next live symbol, -1 at the end
    };
    // Queued pair: (rank << 32) | index of its left symbol, so the smallest key is the lowest
    // rank, then the leftmost pair. The right symbol is the left one's next.
    std::vector<uint64_t> heap;
    std::vector<Symbol> symbols;
};

class BpeModel {
public:
    // `token_to_id` maps token strings (mapped form) to ids; `merges` as "left right" strings
    // in rank order (split at the first space at index >= 1; the first occurrence of a pair wins).
    static BpeModel build(const std::unordered_map<std::string, int32_t>& token_to_id,
                          const std::vector<std::string>& merges);

    // Encodes the raw UTF-8 bytes of one piece and appends the token ids to `out`. A final
    // symbol that is not a token falls back to one-byte token strings of its mapped form
    // (llama.cpp's rarely used fallback; bytes without such a token are dropped).
    void encode_piece(std::string_view bytes, BpeScratch& scratch, std::vector<int32_t>& out) const;

    size_t merge_count() const { return n_merges_; }

private:
    struct Slot {
        uint64_t key = kEmpty;
        int32_t rank = 0;
        int32_t result = 0;
    };
    static constexpr uint64_t kEmpty = ~uint64_t{0};

    static uint64_t pair_key(int32_t left, int32_t right) {
        return (static_cast<uint64_t>(static_cast<uint32_t>(left)) << 32) |
               static_cast<uint32_t>(right);
    }
    size_t slot_of(uint64_t key) const {
        return static_cast<size_t>((key * 0x9E3779B97F4A7C15ull) >> shift_);
    }
    const Slot* find_pair(int32_t left, int32_t right) const;
    void push_bigram(BpeScratch& s, int32_t left) const;
    void append_symbol(int32_t sym, std::vector<int32_t>& out) const;

    std::vector<std::string> sym_text_; // mapped form of each interned symbol
    std::vector<int32_t> sym_token_;    // token id of each symbol, -1 when not in the vocabulary
    int32_t byte_char_token_[256] = {}; // token whose text is that single byte (fallback), or -1
    std::vector<Slot> table_;           // open addressing, power-of-two size
    int shift_ = 64;
    size_t n_merges_ = 0;
};

} // namespace folio::tokenizer
