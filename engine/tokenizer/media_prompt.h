#pragma once
// Prompts with images, tokenized the way llama.cpp's mtmd does it (tools/mtmd/mtmd.cpp):
// the marker `<__media__>` in the text says where each image goes, in order;
// each marker becomes `<|media_start|>` + the image's embeddings (one position per row) +
// `<|media_end|>`. The text pieces between markers are tokenized with special tokens parsed,
// and only the first piece gets the vocabulary's bos/eos (add_special). Without any marker
// the images go before the text.

#include "folio/error.h"
#include "tokenizer/tokenizer.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace folio::tokenizer {

inline constexpr std::string_view kMediaMarker = "<__media__>";

// One evaluation chunk: text tokens, or (image >= 0, tokens empty) the embeddings of an image.
struct MediaChunk {
    std::vector<int32_t> tokens;
    int image = -1;
};

// Splits `text` into chunks for n_images images. Errors: a marker count other than 0 or
// n_images, a vocabulary without `<|media_start|>` / `<|media_end|>` (when n_images > 0).
Expected<std::vector<MediaChunk>> tokenize_media_prompt(const Tokenizer& tok, std::string_view text,
                                                        int n_images);

// The same prompt as one id sequence in which the Kimi-VL image placeholder `<|media_pad|>`
// stands for each image (the runtime puts the image's rows in its place, as for the chat
// template). Errors: those of tokenize_media_prompt, a vocabulary without the placeholder.
Expected<std::vector<int32_t>> media_prompt_ids(const Tokenizer& tok, std::string_view text,
                                                int n_images);

} // namespace folio::tokenizer
