#pragma once
// A request's prompt as the model reads it: its messages rendered with the model's chat template
// (Kimi-VL's media tokens when they carry images), or its raw tokens or text, with each image
// placeholder expanded to the image's embedding rows.

#include "folio/engine.h"
#include "folio/error.h"
#include "runtime/decoder_adapter.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace folio {

class ImageEmbeddingCache;

// One entry per prompt position.
struct AssembledPrompt {
    std::vector<int32_t> ids;             // image rows: the placeholder id
    std::vector<uint64_t> keys;           // position_key.h
    std::vector<const float*> image_rows; // the embedding row, or null for a token
    std::vector<std::shared_ptr<const std::vector<float>>> images; // keep image_rows alive
};

// Checks the result too: not empty, every id in the vocabulary, shorter than `context_limit`.
Expected<AssembledPrompt> assemble_prompt(const Request& request, const DecoderHandle& model,
                                          ImageEmbeddingCache& images, int threads,
                                          int64_t context_limit);

namespace vision {
struct VisionModel;
}

// How many positions assemble_prompt would make of `request`, without encoding images (their
// rows come from the projector's canvas rule) and without the context check. `projector` may
// be null (then images are an error, as in assemble_prompt).
Expected<int64_t> count_prompt_positions(const Request& request, const DecoderHandle& model,
                                         const vision::VisionModel* projector);

} // namespace folio
