#include "tokenizer/special_tokens.h"

#include <algorithm>
#include <cstring>

namespace folio::tokenizer {

namespace {

uint32_t pair_index(std::string_view s, size_t pos) {
    return (static_cast<uint32_t>(static_cast<uint8_t>(s[pos])) << 8) |
           static_cast<uint8_t>(s[pos + 1]);
}

} // namespace

SpecialTokenMatcher::SpecialTokenMatcher(std::vector<SpecialToken> tokens) {
    // Empty strings would match everywhere; llama.cpp never finds them useful either.
    std::erase_if(tokens, [](const SpecialToken& t) { return t.text.empty(); });
    std::stable_sort(
        tokens.begin(), tokens.end(), [](const SpecialToken& a, const SpecialToken& b) {
            return a.text.size() != b.text.size() ? a.text.size() > b.text.size() : a.id < b.id;
        });
    tokens_ = std::move(tokens);

    std::vector<uint32_t> counts(65536, 0);
    for (uint32_t i = 0; i < tokens_.size(); ++i) {
        const std::string& t = tokens_[i].text;
        first_byte_[static_cast<uint8_t>(t[0])] = true;
        if (t.size() == 1)
            single_byte_[static_cast<uint8_t>(t[0])].push_back(i);
        else
            ++counts[pair_index(t, 0)];
    }
    pair_start_.assign(65537, 0);
    for (uint32_t k = 0; k < 65536; ++k)
        pair_start_[k + 1] = pair_start_[k] + counts[k];
    pair_items_.resize(pair_start_[65536]);
    std::vector<uint32_t> fill(pair_start_.begin(), pair_start_.end() - 1);
    for (uint32_t i = 0; i < tokens_.size(); ++i)
        if (tokens_[i].text.size() > 1)
            pair_items_[fill[pair_index(tokens_[i].text, 0)]++] = i;
}

void SpecialTokenMatcher::partition(std::string_view text, bool parse_special,
                                    std::vector<Segment>& out) const {
    out.clear();
    struct Occurrence {
        uint32_t priority;
        size_t pos;
    };
    std::vector<Occurrence> occ;
    const size_t n = text.size();
    auto consider = [&](uint32_t idx, size_t pos) {
        const SpecialToken& t = tokens_[idx];
        if (!parse_special && !t.always)
            return;
        if (t.text.size() <= n - pos &&
            std::memcmp(text.data() + pos, t.text.data(), t.text.size()) == 0)
            occ.push_back({idx, pos});
    };
    if (!tokens_.empty()) {
        for (size_t pos = 0; pos < n; ++pos) {
            const uint8_t b = static_cast<uint8_t>(text[pos]);
            if (!first_byte_[b])
                continue;
            for (uint32_t idx : single_byte_[b])
                consider(idx, pos);
            if (pos + 1 < n) {
                const uint32_t k = pair_index(text, pos);
                for (uint32_t j = pair_start_[k]; j < pair_start_[k + 1]; ++j)
                    consider(pair_items_[j], pos);
            }
        }
    }
    if (occ.empty()) {
        if (n > 0)
            out.push_back({0, n, -1});
        return;
    }
    std::sort(occ.begin(), occ.end(), [](const Occurrence& a, const Occurrence& b) {
        return a.priority != b.priority ? a.priority < b.priority : a.pos < b.pos;
    });
    std::vector<uint8_t> claimed(n, 0);
    std::vector<Segment> found;
    for (const Occurrence& o : occ) {
        const size_t len = tokens_[o.priority].text.size();
        if (std::find(claimed.begin() + o.pos, claimed.begin() + o.pos + len, 1) !=
            claimed.begin() + o.pos + len)
            continue;
        std::fill(claimed.begin() + o.pos, claimed.begin() + o.pos + len, 1);
        found.push_back({o.pos, len, tokens_[o.priority].id});
    }
    std::sort(found.begin(), found.end(),
              [](const Segment& a, const Segment& b) { return a.offset < b.offset; });
    size_t at = 0;
    for (const Segment& s : found) {
        if (s.offset > at)
            out.push_back({at, s.offset - at, -1});
        out.push_back(s);
        at = s.offset + s.length;
    }
    if (at < n)
        out.push_back({at, n - at, -1});
}

} // namespace folio::tokenizer
