#include "tokenizer/media_prompt.h"

#include "tokenizer/chat_template.h"

#include <string>

namespace folio::tokenizer {

namespace {

// The text pieces around the markers: n_markers + 1 of them.
std::vector<std::string_view> split_at_markers(std::string_view text) {
    std::vector<std::string_view> pieces;
    size_t from = 0;
    for (size_t at; (at = text.find(kMediaMarker, from)) != std::string_view::npos;
         from = at + kMediaMarker.size())
        pieces.push_back(text.substr(from, at - from));
    pieces.push_back(text.substr(from));
    return pieces;
}

} // namespace

Expected<std::vector<MediaChunk>> tokenize_media_prompt(const Tokenizer& tok, std::string_view text,
                                                        int n_images) {
    if (n_images < 0)
        return make_error(ErrorCode::InvalidArgument, "negative image count");
    std::vector<std::string_view> pieces = split_at_markers(text);
    const int n_markers = static_cast<int>(pieces.size()) - 1;
    if (n_markers == 0 && n_images > 0) // no marker: every image before the text
        pieces.insert(pieces.begin(), static_cast<size_t>(n_images), std::string_view{});
    else if (n_markers != n_images)
        return make_error(ErrorCode::InvalidArgument,
                          "the prompt has " + std::to_string(n_markers) + " " +
                              std::string(kMediaMarker) + " markers for " +
                              std::to_string(n_images) + " images");

    int32_t media_start = kNoToken, media_end = kNoToken;
    if (n_images > 0) {
        const auto start = tok.find_token("<|media_start|>");
        const auto end = tok.find_token("<|media_end|>");
        if (!start || !end)
            return make_error(ErrorCode::Unsupported,
                              "the vocabulary has no <|media_start|> / <|media_end|> tokens "
                              "(not a Kimi-VL text model)");
        media_start = *start;
        media_end = *end;
    }

    std::vector<MediaChunk> chunks;
    for (size_t i = 0; i < pieces.size(); ++i) {
        FOLIO_TRY(ids, tok.encode(pieces[i], /*add_special=*/i == 0, /*parse_special=*/true));
        MediaChunk text_chunk;
        if (i > 0)
            text_chunk.tokens.push_back(media_end);
        text_chunk.tokens.insert(text_chunk.tokens.end(), ids.begin(), ids.end());
        const bool image_follows = i + 1 < pieces.size();
        if (image_follows)
            text_chunk.tokens.push_back(media_start);
        if (!text_chunk.tokens.empty())
            chunks.push_back(std::move(text_chunk));
        if (image_follows) {
            MediaChunk image_chunk;
            image_chunk.image = static_cast<int>(i);
            chunks.push_back(std::move(image_chunk));
        }
    }
    return chunks;
}

Expected<std::vector<int32_t>> media_prompt_ids(const Tokenizer& tok, std::string_view text,
                                                int n_images) {
    FOLIO_TRY(chunks, tokenize_media_prompt(tok, text, n_images));
    const auto placeholder = tok.find_token(kKimiImagePlaceholder);
    if (n_images > 0 && !placeholder)
        return make_error(ErrorCode::Unsupported, "the vocabulary has no " +
                                                      std::string(kKimiImagePlaceholder) +
                                                      " token (not a Kimi-VL text model)");
    std::vector<int32_t> ids;
    for (const MediaChunk& c : chunks) {
        if (c.image >= 0)
            ids.push_back(*placeholder);
        ids.insert(ids.end(), c.tokens.begin(), c.tokens.end());
    }
    return ids;
}

} // namespace folio::tokenizer
