#include "tiny_vocab.h"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string_view>
#include <utility>

namespace folio::tools {

namespace {

const char* const kCorpus =
    "The company reported revenue of 4.5 billion dollars for the year, an increase of 7.4 "
    "percent, while the operating margin improved to 15.8 percent. Net income rose to 512 "
    "million dollars and the board proposed a higher dividend. The annual report describes the "
    "strategy, the principal risks and the outlook for the next financial year. Revenue in the "
    "fourth quarter was the strongest on record, and free cash flow reached 603 million. "
    "Research and development spending grew as the company launched new instruments, and the "
    "order book at the end of the year supported further growth. The chairman thanked the "
    "employees, the customers and the shareholders for their trust. In the summary table the "
    "gross profit, the operating income and the earnings per share are shown for three years. "
    "What does this chart show? The chart shows quarterly revenue in the current and the "
    "previous year. Summarize the report: revenue rose while margins improved, and the balance "
    "sheet remained strong with net debt below one times earnings.";

// Kimi special tokens in the order the conformance vocabulary uses.
const char* const kSpecials[] = {"[BOS]",
                                 "[EOS]",
                                 "<|im_end|>",
                                 "<|im_user|>",
                                 "<|im_assistant|>",
                                 "<|im_middle|>",
                                 "<|media_start|>",
                                 "<|media_end|>",
                                 "[UNK]",
                                 "[PAD]",
                                 "<|im_system|>",
                                 "<|media_content|>",
                                 "<|media_pad|>"};

std::string utf8(uint32_t cp) {
    std::string s;
    if (cp < 0x80) {
        s += static_cast<char>(cp);
    } else if (cp < 0x800) {
        s += static_cast<char>(0xC0 | (cp >> 6));
        s += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        s += static_cast<char>(0xE0 | (cp >> 12));
        s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        s += static_cast<char>(0x80 | (cp & 0x3F));
    }
    return s;
}

// Words with their leading space, as a byte-level pre-tokenizer would cut plain prose.
std::vector<std::string> split_words(std::string_view text) {
    std::vector<std::string> words;
    std::string cur;
    for (char c : text) {
        if (c == ' ' && !cur.empty()) {
            words.push_back(cur);
            cur.clear();
        }
        cur += c;
    }
    if (!cur.empty())
        words.push_back(cur);
    return words;
}

} // namespace

const std::vector<std::string>& byte_to_unicode_table() {
    static const std::vector<std::string> table = [] {
        std::vector<std::string> t(256);
        uint32_t next = 256;
        for (uint32_t b = 0; b < 256; ++b) {
            const bool printable =
                (b >= 0x21 && b <= 0x7E) || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE);
            t[b] = utf8(printable ? b : next++);
        }
        return t;
    }();
    return table;
}

Vocab build_tiny_vocab(uint32_t vocab_size, uint32_t n_merges) {
    const auto& bytes = byte_to_unicode_table();
    const uint32_t n_specials = sizeof(kSpecials) / sizeof(kSpecials[0]);
    if (vocab_size < 256 + n_merges + n_specials)
        throw std::invalid_argument("vocabulary too small for its merges and specials");

    Vocab v;
    for (uint32_t b = 0; b < 256; ++b) {
        v.tokens.push_back(bytes[b]);
        v.token_types.push_back(1);
    }

    // Each word as a list of symbols (mapped strings); merge the most frequent adjacent pair
    // until n_merges merges exist or no pair repeats. Ties: the lexicographically smallest pair,
    // so the result does not depend on map iteration order.
    std::map<std::vector<std::string>, int> words;
    for (const std::string& w : split_words(kCorpus)) {
        std::vector<std::string> symbols;
        for (unsigned char c : w)
            symbols.push_back(bytes[c]);
        ++words[symbols];
    }
    while (v.merges.size() < n_merges) {
        std::map<std::pair<std::string, std::string>, int> pairs;
        for (const auto& [symbols, count] : words)
            for (size_t i = 0; i + 1 < symbols.size(); ++i)
                pairs[{symbols[i], symbols[i + 1]}] += count;
        auto best = pairs.end();
        for (auto it = pairs.begin(); it != pairs.end(); ++it)
            if (best == pairs.end() || it->second > best->second)
                best = it;
        if (best == pairs.end() || best->second < 2)
            break;
        const auto [left, right] = best->first;
        v.merges.push_back(left + " " + right);
        // Two merges can spell the same string ("a bc", "ab c"); token strings stay unique.
        if (std::find(v.tokens.begin(), v.tokens.end(), left + right) == v.tokens.end()) {
            v.tokens.push_back(left + right);
            v.token_types.push_back(1);
        }
        std::map<std::vector<std::string>, int> merged;
        for (const auto& [symbols, count] : words) {
            std::vector<std::string> out;
            for (size_t i = 0; i < symbols.size(); ++i) {
                if (i + 1 < symbols.size() && symbols[i] == left && symbols[i + 1] == right) {
                    out.push_back(left + right);
                    ++i;
                } else {
                    out.push_back(symbols[i]);
                }
            }
            merged[out] += count;
        }
        words = std::move(merged);
    }

    auto add_special = [&](const char* text) {
        v.tokens.emplace_back(text);
        v.token_types.push_back(3);
        return static_cast<uint32_t>(v.tokens.size() - 1);
    };
    for (const char* s : kSpecials) {
        const uint32_t id = add_special(s);
        const std::string_view name = s;
        if (name == "[BOS]")
            v.bos_id = id;
        else if (name == "[EOS]")
            v.eos_id = id;
        else if (name == "[PAD]")
            v.pad_id = id;
        else if (name == "[UNK]")
            v.unk_id = id;
    }
    while (v.tokens.size() < vocab_size) {
        v.tokens.push_back("[PAD" + std::to_string(v.tokens.size()) + "]");
        v.token_types.push_back(5);
    }
    return v;
}

} // namespace folio::tools
