// Tokenizer::encode / decode and the accessors (loading is in tokenizer_load.cpp).
#include "tokenizer/tokenizer.h"

#include "tokenizer/byte_encoding.h"

#include <algorithm>

namespace folio::tokenizer {

// Buffers reused across the fragments of one encode call, and a cache of the ids of pieces
// already encoded (text repeats words a lot: a 1 MB report has a few thousand distinct ones).
struct EncodeState {
    std::vector<Segment> segments;
    std::vector<uint32_t> cps;
    Pieces pieces;
    PreTokenizeScratch pre;
    BpeScratch bpe;
    std::string piece;
    struct CacheEntry {
        uint32_t offset;
        uint32_t count;
    };
    std::unordered_map<std::string, CacheEntry> cache;
    std::vector<int32_t> cached_ids;
};

namespace {

constexpr size_t kMaxCachedPieceBytes = 64;
constexpr size_t kMaxCacheEntries = 1 << 16;

} // namespace

Expected<std::vector<int32_t>> Tokenizer::encode(std::string_view text, bool add_special,
                                                 bool parse_special) const {
    std::vector<int32_t> out;
    out.reserve(text.size() / 3 + 4);
    if (add_special && add_bos_) {
        if (!valid(bos_))
            return make_error(ErrorCode::InvalidArgument,
                              "tokenizer: add_bos_token is set but the vocabulary has no bos id");
        out.push_back(bos_);
    }
    EncodeState st;
    specials_.partition(text, parse_special, st.segments);
    for (const Segment& seg : st.segments) {
        if (seg.token >= 0)
            out.push_back(seg.token);
        else
            encode_fragment(text.substr(seg.offset, seg.length), st, out);
    }
    if (add_special && add_eos_) {
        if (!valid(eos_))
            return make_error(ErrorCode::InvalidArgument,
                              "tokenizer: add_eos_token is set but the vocabulary has no eos id");
        out.push_back(eos_);
    }
    return out;
}

void Tokenizer::encode_fragment(std::string_view text, EncodeState& st,
                                std::vector<int32_t>& out) const {
    st.cps.clear();
    utf8_decode(text, st.cps);
    pre_tokenize(pre_, st.cps, st.pre, st.pieces);
    size_t at = 0;
    for (uint32_t len : st.pieces) {
        // Re-encoded from code points: invalid input bytes have become U+FFFD.
        st.piece.clear();
        for (size_t i = at; i < at + len; ++i)
            utf8_append(st.piece, st.cps[i]);
        at += len;

        if (ignore_merges_) {
            auto it = text_to_id_.find(bytes_to_mapped(st.piece));
            if (it != text_to_id_.end()) {
                out.push_back(it->second);
                continue;
            }
        }
        const bool cacheable = st.piece.size() > 1 && st.piece.size() <= kMaxCachedPieceBytes;
        if (cacheable) {
            auto it = st.cache.find(st.piece);
            if (it != st.cache.end()) {
                const auto* ids = st.cached_ids.data() + it->second.offset;
                out.insert(out.end(), ids, ids + it->second.count);
                continue;
            }
        }
        const size_t before = out.size();
        bpe_.encode_piece(st.piece, st.bpe, out);
        if (cacheable && st.cache.size() < kMaxCacheEntries) {
            const auto offset = static_cast<uint32_t>(st.cached_ids.size());
            st.cached_ids.insert(st.cached_ids.end(), out.begin() + static_cast<long>(before),
                                 out.end());
            st.cache.emplace(st.piece, EncodeState::CacheEntry{
                                           offset, static_cast<uint32_t>(out.size() - before)});
        }
    }
}

Expected<std::string> Tokenizer::token_to_piece(int32_t id, bool render_special) const {
    if (!valid(id))
        return make_error(ErrorCode::InvalidArgument, "tokenizer: token id " + std::to_string(id) +
                                                          " outside the vocabulary (" +
                                                          std::to_string(texts_.size()) +
                                                          " tokens)");
    const TokenType t = types_[id];
    if (!render_special && (t == TokenType::Control || t == TokenType::Unknown))
        return std::string();
    return pieces_[id];
}

Expected<std::string> Tokenizer::decode(std::span<const int32_t> ids, bool render_special) const {
    std::string out;
    for (int32_t id : ids) {
        FOLIO_TRY(piece, token_to_piece(id, render_special));
        out += piece;
    }
    return out;
}

bool Tokenizer::is_eog(int32_t id) const {
    return std::binary_search(eog_.begin(), eog_.end(), id);
}

TokenType Tokenizer::token_type(int32_t id) const {
    return valid(id) ? types_[id] : TokenType::Undefined;
}

const std::string& Tokenizer::token_text(int32_t id) const {
    static const std::string kEmpty;
    return valid(id) ? texts_[id] : kEmpty;
}

std::optional<int32_t> Tokenizer::find_token(std::string_view text) const {
    auto it = text_to_id_.find(std::string(text));
    if (it == text_to_id_.end())
        return std::nullopt;
    return it->second;
}

} // namespace folio::tokenizer
