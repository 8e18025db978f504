#pragma once
// `--mmproj P.gguf --image I.png -p TEXT` for folio-cli logits (issue 8), which evaluates the
// decoder directly: encodes the images with the kimivl encoder and splits the prompt at its
// `<__media__>` markers (tokenizer/media_prompt.h) into the chunks model/decoder/media_eval.h
// evaluates. `generate` sends the same prompt to the Engine (folio::Request::images).

#include "folio/error.h"
#include "model/decoder/decoder_model.h"
#include "tokenizer/media_prompt.h"

#include <string>
#include <vector>

namespace folio::cli {

struct MediaPrompt {
    std::vector<tokenizer::MediaChunk> chunks;
    std::vector<std::vector<float>> images; // per image: [n_image_tokens][n_embd] projector output
    int64_t n_positions = 0;
};

Expected<MediaPrompt> prepare_media_prompt(const DecoderModel& model,
                                           const tokenizer::Tokenizer& tok,
                                           const std::string& mmproj,
                                           const std::vector<std::string>& image_paths,
                                           const std::string& text, int threads);

} // namespace folio::cli
