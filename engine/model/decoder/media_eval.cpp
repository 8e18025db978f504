#include "model/decoder/media_eval.h"

#include <string>

namespace folio {

int64_t media_prompt_positions(std::span<const tokenizer::MediaChunk> chunks,
                               std::span<const std::vector<float>> images, int64_t n_embd) {
    int64_t n = 0;
    for (const tokenizer::MediaChunk& c : chunks) {
        if (c.image < 0)
            n += static_cast<int64_t>(c.tokens.size());
        else if (static_cast<size_t>(c.image) < images.size() && n_embd > 0)
            n += static_cast<int64_t>(images[static_cast<size_t>(c.image)].size()) / n_embd;
    }
    return n;
}

Status eval_media_chunks(const DecoderModel& model, DecoderState& state, DecoderScratch& scratch,
                         std::span<const tokenizer::MediaChunk> chunks,
                         std::span<const std::vector<float>> images, const EvalOptions& options,
                         std::vector<float>& logits) {
    const int64_t E = model.config.n_embd;
    EvalOptions opt = options;
    opt.all_logits = false;
    bool any = false;
    for (const tokenizer::MediaChunk& c : chunks) {
        if (c.image < 0) {
            if (c.tokens.empty())
                continue;
            FOLIO_CHECK(decoder_eval(model, state, scratch, c.tokens.data(),
                                     static_cast<int64_t>(c.tokens.size()), opt, logits));
        } else {
            if (static_cast<size_t>(c.image) >= images.size())
                return make_error(ErrorCode::InvalidArgument, "prompt refers to image " +
                                                                  std::to_string(c.image) + " of " +
                                                                  std::to_string(images.size()));
            const std::vector<float>& embd = images[static_cast<size_t>(c.image)];
            if (embd.empty() || embd.size() % static_cast<size_t>(E) != 0)
                return make_error(
                    ErrorCode::InvalidArgument,
                    "image " + std::to_string(c.image) + " has " + std::to_string(embd.size()) +
                        " values, not a positive multiple of n_embd " + std::to_string(E));
            FOLIO_CHECK(decoder_eval_embeddings(model, state, scratch, embd.data(),
                                                static_cast<int64_t>(embd.size()) / E, opt,
                                                logits));
        }
        any = true;
    }
    if (!any)
        return make_error(ErrorCode::InvalidArgument, "empty prompt");
    return {};
}

} // namespace folio
