#pragma once
// Evaluation of a prompt with images (Kimi-VL, arXiv:2504.07491): text chunks go
// through decoder_eval, each image chunk through decoder_eval_embeddings with the image's
// projector output, one position per embedding row, in chunk order (as llama.cpp's mtmd does).

#include "folio/error.h"
#include "model/decoder/decoder_model.h"
#include "tokenizer/media_prompt.h"

#include <span>
#include <vector>

namespace folio {

// Positions the chunks take: text tokens plus images[i].size() / n_embd rows per image chunk.
int64_t media_prompt_positions(std::span<const tokenizer::MediaChunk> chunks,
                               std::span<const std::vector<float>> images, int64_t n_embd);

// Evaluates every chunk; `logits` receives [n_vocab] for the last position (options.all_logits
// is ignored). Errors: an image index out of range, an image whose size is not a positive
// multiple of n_embd, and whatever the decoder reports.
Status eval_media_chunks(const DecoderModel& model, DecoderState& state, DecoderScratch& scratch,
                         std::span<const tokenizer::MediaChunk> chunks,
                         std::span<const std::vector<float>> images, const EvalOptions& options,
                         std::vector<float>& logits);

} // namespace folio
