#include "cli/generate_media.h"

#include "cli/commands.h"
#include "cli/media_input.h"

#include "model/decoder_model.h"
#include "model/media_eval.h"

#include <cstdio>

namespace folio::cli {

int generate_with_images(const MediaGenerateArgs& a) {
    auto model = load_decoder(a.model);
    if (!model)
        return fail(model.error().to_string());
    const DecoderModel& m = **model;
    auto tok = tokenizer::Tokenizer::from_gguf(*m.file);
    if (!tok)
        return fail(tok.error().to_string());
    auto prompt = prepare_media_prompt(m, *tok, a.mmproj, a.images, a.text, a.threads);
    if (!prompt)
        return fail(prompt.error().to_string());

    const int64_t needed = prompt->n_positions + a.options.max_tokens;
    const int64_t context = a.context > 0 ? a.context : needed;
    if (context < prompt->n_positions + 1)
        return fail("context of " + std::to_string(context) + " positions is too small for a " +
                    std::to_string(prompt->n_positions) + "-position prompt");
    DecoderState state = make_decoder_state(m.config, context);
    DecoderScratch scratch;
    EvalOptions opt;
    opt.kernels.n_threads = a.threads;

    // The generator's first call is the prefill: it evaluates the chunks (images included);
    // the text tokens it is handed only feed the sampler's penalty history.
    std::vector<int32_t> text_tokens;
    for (const tokenizer::MediaChunk& c : prompt->chunks)
        text_tokens.insert(text_tokens.end(), c.tokens.begin(), c.tokens.end());
    bool prefilled = false;
    EvalFn eval = [&](const int32_t* tokens, int64_t n, std::vector<float>& logits) -> Status {
        if (!prefilled) {
            prefilled = true;
            return eval_media_chunks(m, state, scratch, prompt->chunks, prompt->images, opt,
                                     logits);
        }
        if (state.size() + n > state.max_tokens())
            return make_error(ErrorCode::InvalidArgument, "context is full (" +
                                                              std::to_string(context) +
                                                              " positions); raise -c");
        return decoder_eval(m, state, scratch, tokens, n, opt, logits);
    };
    std::vector<int32_t> ids;
    TokenSink sink = [&](std::string_view text, int32_t id) {
        if (id >= 0)
            ids.push_back(id);
        if (!a.ids_only && !text.empty()) {
            std::fwrite(text.data(), 1, text.size(), stdout);
            std::fflush(stdout);
        }
        return true;
    };
    auto result = generate(eval, *tok, text_tokens, a.options, sink);
    if (!result)
        return fail(result.error().to_string());

    if (a.ids_only)
        for (size_t i = 0; i < ids.size(); ++i)
            std::printf("%s%d", i ? "," : "", ids[i]);
    std::printf("\n");
    const double prefill_tps =
        result->prefill_seconds > 0
            ? static_cast<double>(prompt->n_positions) / result->prefill_seconds
            : 0.0;
    const double decode_tps =
        result->decode_seconds > 0
            ? static_cast<double>(result->tokens.size()) / result->decode_seconds
            : 0.0;
    if (a.print_stats)
        std::printf("stats: prefill_tps=%.2f decode_tps=%.2f prompt_tokens=%lld images=%zu "
                    "generated=%zu\n",
                    prefill_tps, decode_tps, static_cast<long long>(prompt->n_positions),
                    prompt->images.size(), result->tokens.size());
    else if (!a.quiet)
        std::fprintf(
            stderr,
            "prompt %lld positions (%zu images), %.2f t/s; generated %zu tokens, %.2f t/s\n",
            static_cast<long long>(prompt->n_positions), prompt->images.size(), prefill_tps,
            result->tokens.size(), decode_tps);
    return 0;
}

} // namespace folio::cli
