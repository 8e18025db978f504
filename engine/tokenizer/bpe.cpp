#include "tokenizer/bpe.h"

#include "tokenizer/byte_encoding.h"
#include "tokenizer/unicode.h"

#include <algorithm>
#include <bit>
#include <functional>

namespace folio::tokenizer {

BpeModel BpeModel::build(const std::unordered_map<std::string, int32_t>& token_to_id,
                         const std::vector<std::string>& merges) {
    BpeModel m;
    std::unordered_map<std::string, int32_t> interned;
    interned.reserve(merges.size() + 512);
    auto intern = [&](const std::string& s) -> int32_t {
        auto [it, inserted] = interned.emplace(s, static_cast<int32_t>(m.sym_text_.size()));
        if (inserted)
            m.sym_text_.push_back(s);
        return it->second;
    };
    // Symbols 0..255: the byte characters, so a piece's initial symbols are its bytes.
    for (uint32_t b = 0; b < 256; ++b) {
        std::string s;
        utf8_append(s, kByteToCp[b]);
        intern(s);
    }

    struct Merge {
        int32_t left, right, result, rank;
    };
    std::vector<Merge> list;
    list.reserve(merges.size());
    for (size_t i = 0; i < merges.size(); ++i) {
        const std::string& w = merges[i];
        const size_t sp = w.size() > 1 ? w.find(' ', 1) : std::string::npos;
        if (sp == std::string::npos || sp + 1 >= w.size())
            continue; // no usable pair (llama.cpp stores it as ("", "") which never matches)
        const std::string left = w.substr(0, sp);
        const std::string right = w.substr(sp + 1);
        const int32_t l = intern(left);
        const int32_t r = intern(right);
        const int32_t res = intern(left + right);
        list.push_back({l, r, res, static_cast<int32_t>(i)});
    }

    size_t cap = 16;
    while (cap < list.size() * 2)
        cap *= 2;
    m.table_.assign(cap, Slot{});
    m.shift_ = 64 - std::countr_zero(cap);
    for (const Merge& e : list) {
        const uint64_t key = pair_key(e.left, e.right);
        size_t i = m.slot_of(key);
        while (m.table_[i].key != kEmpty && m.table_[i].key != key)
            i = (i + 1) & (cap - 1);
        if (m.table_[i].key == key)
            continue; // first occurrence wins
        m.table_[i] = Slot{key, e.rank, e.result};
        ++m.n_merges_;
    }

    m.sym_token_.resize(m.sym_text_.size());
    for (size_t s = 0; s < m.sym_text_.size(); ++s) {
        auto it = token_to_id.find(m.sym_text_[s]);
        m.sym_token_[s] = it == token_to_id.end() ? -1 : it->second;
    }
    for (int b = 0; b < 256; ++b) {
        auto it = token_to_id.find(std::string(1, static_cast<char>(b)));
        m.byte_char_token_[b] = it == token_to_id.end() ? -1 : it->second;
    }
    return m;
}

const BpeModel::Slot* BpeModel::find_pair(int32_t left, int32_t right) const {
    const uint64_t key = pair_key(left, right);
    const size_t mask = table_.size() - 1;
    for (size_t i = slot_of(key);; i = (i + 1) & mask) {
        const Slot& s = table_[i];
        if (s.key == key)
            return &s;
        if (s.key == kEmpty)
            return nullptr;
    }
}

void BpeModel::push_bigram(BpeScratch& s, int32_t left) const {
    if (left < 0)
        return;
    const int32_t right = s.symbols[left].next;
    if (right < 0)
        return;
    const Slot* slot = find_pair(s.symbols[left].id, s.symbols[right].id);
    if (slot == nullptr)
        return;
    s.heap.push_back((static_cast<uint64_t>(slot->rank) << 32) | static_cast<uint32_t>(left));
    std::push_heap(s.heap.begin(), s.heap.end(), std::greater<>{});
}

void BpeModel::append_symbol(int32_t sym, std::vector<int32_t>& out) const {
    const int32_t tok = sym_token_[sym];
    if (tok >= 0) {
        out.push_back(tok);
        return;
    }
    for (char c : sym_text_[sym]) {
        const int32_t t = byte_char_token_[static_cast<uint8_t>(c)];
        if (t >= 0)
            out.push_back(t);
    }
}

void BpeModel::encode_piece(std::string_view bytes, BpeScratch& s,
                            std::vector<int32_t>& out) const {
    const int32_t n = static_cast<int32_t>(bytes.size());
    if (n == 0)
        return;
    if (n == 1) {
        append_symbol(static_cast<uint8_t>(bytes[0]), out);
        return;
    }
    s.symbols.resize(static_cast<size_t>(n));
    for (int32_t i = 0; i < n; ++i)
        s.symbols[i] = {static_cast<uint8_t>(bytes[i]), i - 1, i + 1 < n ? i + 1 : -1};
    s.heap.clear();
    for (int32_t i = 0; i + 1 < n; ++i)
        push_bigram(s, i);

    while (!s.heap.empty()) {
        std::pop_heap(s.heap.begin(), s.heap.end(), std::greater<>{});
        const uint64_t key = s.heap.back();
        s.heap.pop_back();
        const auto rank = static_cast<int32_t>(key >> 32);
        const auto li = static_cast<int32_t>(key & 0xFFFFFFFFu);
        BpeScratch::Symbol& left = s.symbols[li];
        // Outdated when either side changed since the pair was queued: ranks are
        // unique per pair of strings, so the pair now at this position has another rank (or
        // none) exactly when the queued one no longer exists.
        if (left.id < 0 || left.next < 0)
            continue;
        BpeScratch::Symbol& right = s.symbols[left.next];
        const Slot* slot = find_pair(left.id, right.id);
        if (slot == nullptr || slot->rank != rank)
            continue;
        left.id = slot->result;
        right.id = -1;
        left.next = right.next;
        if (right.next >= 0)
            s.symbols[right.next].prev = li;
        push_bigram(s, left.prev);
        push_bigram(s, li);
    }
    for (int32_t i = 0; i >= 0; i = s.symbols[i].next)
        append_symbol(s.symbols[i].id, out);
}

} // namespace folio::tokenizer
