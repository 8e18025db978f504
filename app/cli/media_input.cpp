#include "cli/media_input.h"

#include "model/decoder/media_eval.h"
#include "model/vision/image_io.h"
#include "model/vision/vision_encoder.h"
#include "model/vision/vision_model.h"

namespace folio::cli {

Expected<MediaPrompt> prepare_media_prompt(const DecoderModel& model,
                                           const tokenizer::Tokenizer& tok,
                                           const std::string& mmproj,
                                           const std::vector<std::string>& image_paths,
                                           const std::string& text, int threads) {
    MediaPrompt p;
    FOLIO_TRY(chunks,
              tokenizer::tokenize_media_prompt(tok, text, static_cast<int>(image_paths.size())));
    p.chunks = std::move(chunks);
    if (!image_paths.empty()) {
        FOLIO_TRY(vision, vision::load_vision_model(mmproj));
        if (vision.hp.n_embd_text != model.config.n_embd)
            return make_error(ErrorCode::InvalidArgument,
                              mmproj + ": projection size " +
                                  std::to_string(vision.hp.n_embd_text) +
                                  " does not match the text model's n_embd " +
                                  std::to_string(model.config.n_embd));
        KernelContext ctx;
        ctx.n_threads = threads;
        for (const std::string& path : image_paths) {
            FOLIO_TRY(image, vision::load_image_file(path));
            FOLIO_TRY(embd, vision::encode_image(vision, image, ctx, nullptr));
            p.images.push_back(std::move(embd));
        }
    }
    p.n_positions = media_prompt_positions(p.chunks, p.images, model.config.n_embd);
    return p;
}

} // namespace folio::cli
