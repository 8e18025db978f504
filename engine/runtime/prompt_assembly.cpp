#include "runtime/prompt_assembly.h"

#include "model/vision/image_io.h"
#include "model/vision/vision_model.h"
#include "runtime/image_embedding_cache.h"
#include "runtime/position_key.h"
#include "tokenizer/media_prompt.h"

#include <functional>
#include <string>

namespace folio {

namespace {

using ImageProgress = std::function<void(int, int)>;

// Replaces each image placeholder token of `ids` by the image's embedding rows (one position
// per row), between the media start/end tokens the template wrote (as llama.cpp's tools/mtmd does).
Status expand_images(AssembledPrompt& prompt, const std::vector<int32_t>& ids,
                     const std::vector<const ImageInput*>& images, const DecoderHandle& model,
                     ImageEmbeddingCache& cache, int threads, const ImageProgress& progress) {
    const tokenizer::Tokenizer& tok = decoder_tokenizer(model);
    const auto placeholder = images.empty() ? std::optional<int32_t>()
                                            : tok.find_token(tokenizer::kKimiImagePlaceholder);
    if (!images.empty() && !placeholder)
        return make_error(ErrorCode::Unsupported, "the vocabulary has no image placeholder token");
    const int64_t E = decoder_embedding_size(model);
    // Every image before the first is placed: progress covers them all, the cached ones at once.
    FOLIO_TRY(embedded, cache.embed_all(images, threads, progress));
    size_t next = 0;
    for (int32_t id : ids) {
        if (placeholder && id == *placeholder && next < images.size()) {
            const ImageEmbedding& image = embedded[next++];
            const int64_t n = static_cast<int64_t>(image.rows->size()) / E;
            for (int64_t r = 0; r < n; ++r) {
                prompt.ids.push_back(id);
                prompt.keys.push_back(image_row_key(image.hash, r));
                prompt.image_rows.push_back(image.rows->data() + r * E);
            }
            prompt.images.push_back(image.rows);
        } else {
            prompt.ids.push_back(id);
            prompt.keys.push_back(token_key(id));
            prompt.image_rows.push_back(nullptr);
        }
    }
    if (next != images.size())
        return make_error(ErrorCode::Internal, "the template placed " + std::to_string(next) +
                                                   " of " + std::to_string(images.size()) +
                                                   " images");
    return {};
}

// The conversation as text through the model's chat template (Kimi-VL's media tokens when it
// carries images); `images` receives the messages' images in prompt order.
Expected<std::string> render_chat_text(const Request& r, const DecoderHandle& model,
                                       bool has_projector, std::vector<const ImageInput*>& images) {
    FOLIO_TRY(kind, decoder_chat_template(model));
    std::vector<tokenizer::ChatMessage> msgs;
    for (const Message& msg : r.messages) {
        std::vector<tokenizer::ToolCall> calls;
        for (const ToolCallInfo& c : msg.tool_calls)
            calls.push_back({c.id, c.name, c.arguments});
        msgs.push_back(
            {msg.role, msg.content, static_cast<int>(msg.images.size()), std::move(calls)});
        for (const ImageInput& img : msg.images)
            images.push_back(&img);
    }
    if (!images.empty()) {
        if (!has_projector)
            return make_error(ErrorCode::InvalidArgument,
                              "the request has images but no vision projector is loaded (mmproj)");
        if (kind == tokenizer::TemplateKind::KimiK2)
            kind = tokenizer::TemplateKind::KimiVL; // Kimi-VL: same turns plus media tokens
    }
    tokenizer::ChatOptions chat_options;
    chat_options.tools_json = r.tools_json;
    return tokenizer::apply_chat_template(kind, msgs, r.generation_prompt, chat_options);
}

// The conversation through the model's chat template, images expanded.
Status render_messages(AssembledPrompt& prompt, const Request& r, const DecoderHandle& model,
                       ImageEmbeddingCache& cache, int threads) {
    std::vector<const ImageInput*> images;
    FOLIO_TRY(text, render_chat_text(r, model, cache.has_projector(), images));
    FOLIO_TRY(ids, decoder_tokenizer(model).encode(text, true, true));
    return expand_images(prompt, ids, images, model, cache, threads, r.callbacks.on_image_progress);
}

// Rows one image becomes, from its size alone (files are decoded to learn it).
Expected<int64_t> image_rows_of(const ImageInput& image, const vision::VisionModel& projector) {
    if (!image.path.empty()) {
        FOLIO_TRY(decoded, vision::load_image_file(image.path));
        return projector.image_rows(decoded.width, decoded.height);
    }
    return projector.image_rows(image.width, image.height);
}

// Token ids plus, for each image placeholder among them, the image's rows minus one.
Expected<int64_t> positions_of(const std::vector<int32_t>& ids,
                               const std::vector<const ImageInput*>& images,
                               const DecoderHandle& model, const vision::VisionModel* projector) {
    int64_t n = static_cast<int64_t>(ids.size());
    if (images.empty())
        return n;
    if (projector == nullptr)
        return make_error(ErrorCode::InvalidArgument,
                          "the request has images but no vision projector is loaded (mmproj)");
    const auto placeholder = decoder_tokenizer(model).find_token(tokenizer::kKimiImagePlaceholder);
    if (!placeholder)
        return make_error(ErrorCode::Unsupported, "the vocabulary has no image placeholder token");
    size_t next = 0;
    for (int32_t id : ids)
        if (id == *placeholder && next < images.size()) {
            FOLIO_TRY(rows, image_rows_of(*images[next++], *projector));
            n += rows - 1;
        }
    return n;
}

} // namespace

Expected<AssembledPrompt> assemble_prompt(const Request& r, const DecoderHandle& model,
                                          ImageEmbeddingCache& images, int threads,
                                          int64_t context_limit) {
    const tokenizer::Tokenizer& tok = decoder_tokenizer(model);
    AssembledPrompt prompt;
    if (!r.prompt_tokens.empty()) {
        prompt.ids = r.prompt_tokens;
    } else if (!r.messages.empty()) {
        FOLIO_CHECK(render_messages(prompt, r, model, images, threads));
    } else if (!r.images.empty()) { // text with <__media__> markers (tokenizer/media_prompt.h)
        if (!images.has_projector())
            return make_error(ErrorCode::InvalidArgument,
                              "the request has images but no vision projector is loaded");
        FOLIO_TRY(ids, tokenizer::media_prompt_ids(tok, r.prompt_text,
                                                   static_cast<int>(r.images.size())));
        std::vector<const ImageInput*> inputs;
        for (const ImageInput& img : r.images)
            inputs.push_back(&img);
        FOLIO_CHECK(expand_images(prompt, ids, inputs, model, images, threads,
                                  r.callbacks.on_image_progress));
    } else {
        FOLIO_TRY(ids, tok.encode(r.prompt_text, true, true));
        prompt.ids = std::move(ids);
    }
    if (prompt.keys.empty()) { // text only: every position is its token
        for (int32_t id : prompt.ids)
            prompt.keys.push_back(token_key(id));
        prompt.image_rows.assign(prompt.ids.size(), nullptr);
    }
    if (prompt.ids.empty())
        return make_error(ErrorCode::InvalidArgument, "the prompt is empty");
    for (int32_t id : prompt.ids)
        if (!tok.valid(id))
            return make_error(ErrorCode::InvalidArgument, "prompt token id " + std::to_string(id) +
                                                              " is outside the vocabulary");
    if (static_cast<int64_t>(prompt.ids.size()) >= context_limit)
        return make_error(ErrorCode::InvalidArgument,
                          "the prompt has " + std::to_string(prompt.ids.size()) +
                              " tokens; the context holds " + std::to_string(context_limit));
    return prompt;
}

Expected<int64_t> count_prompt_positions(const Request& r, const DecoderHandle& model,
                                         const vision::VisionModel* projector) {
    const tokenizer::Tokenizer& tok = decoder_tokenizer(model);
    if (!r.prompt_tokens.empty())
        return static_cast<int64_t>(r.prompt_tokens.size());
    std::vector<const ImageInput*> images;
    if (!r.messages.empty()) {
        FOLIO_TRY(text, render_chat_text(r, model, projector != nullptr, images));
        FOLIO_TRY(ids, tok.encode(text, true, true));
        return positions_of(ids, images, model, projector);
    }
    if (!r.images.empty()) {
        if (projector == nullptr)
            return make_error(ErrorCode::InvalidArgument,
                              "the request has images but no vision projector is loaded");
        FOLIO_TRY(ids, tokenizer::media_prompt_ids(tok, r.prompt_text,
                                                   static_cast<int>(r.images.size())));
        for (const ImageInput& img : r.images)
            images.push_back(&img);
        return positions_of(ids, images, model, projector);
    }
    FOLIO_TRY(ids, tok.encode(r.prompt_text, true, true));
    return static_cast<int64_t>(ids.size());
}

} // namespace folio
