// folio-cli generate: streams a model's continuation of a prompt (or a chat turn).
#include "cli/args.h"
#include "cli/commands.h"
#include "cli/token_list.h"

#include "model/decoder_model.h"
#include "runtime/generator.h"
#include "tokenizer/chat_template.h"
#include "tokenizer/tokenizer.h"

#include <cstdio>

namespace folio::cli {

int cmd_generate(std::vector<std::string> args) {
    const Command& self = *find_command("generate");
    Args a(std::move(args));
    auto model_path = a.take_value("-m", "--model");
    auto prompt_text = a.take_value("-p", "--prompt");
    auto tokens_text = a.take_value("--tokens");
    auto system = a.take_value("--system");
    auto n = a.take_int("-n", "--n-predict");
    auto temp = a.take_double("--temp");
    auto seed = a.take_int("--seed");
    auto top_k = a.take_int("--top-k");
    auto top_p = a.take_double("--top-p");
    auto min_p = a.take_double("--min-p");
    auto rep = a.take_double("--repeat-penalty");
    auto presence = a.take_double("--presence-penalty");
    auto threads = a.take_int("-t", "--threads");
    auto ctx = a.take_int("-c", "--ctx-size");
    std::vector<std::string> stops;
    while (auto s = a.take_value("--stop"))
        stops.push_back(*s);
    const bool chat = a.take_switch("--chat");
    const bool ids_only = a.take_switch("--ids");
    const bool ignore_eos = a.take_switch("--ignore-eos");
    const bool quiet = a.take_switch("--quiet");
    auto rest = a.positionals();
    if (!a.ok())
        return usage_error(self, a.error());
    if (!rest.empty())
        return usage_error(self, "unexpected argument " + rest[0]);
    if (!model_path || (!prompt_text && !tokens_text) || (prompt_text && tokens_text))
        return usage_error(self, "-m and exactly one of -p / --tokens are required");
    if (chat && !prompt_text)
        return usage_error(self, "--chat needs -p");

    auto model = load_decoder(*model_path);
    if (!model)
        return fail(model.error().to_string());
    auto tok = tokenizer::Tokenizer::from_gguf(*(*model)->file);
    if (!tok)
        return fail(tok.error().to_string());

    std::vector<int32_t> prompt;
    if (tokens_text) {
        std::string err;
        auto ids = parse_token_list(*tokens_text, &err);
        if (!ids)
            return usage_error(self, err);
        prompt = *ids;
    } else {
        std::string text = *prompt_text;
        if (chat) {
            auto tmpl_text = (*model)->file->get_string("tokenizer.chat_template");
            auto pre = (*model)->file->get_string("tokenizer.ggml.pre");
            auto kind = tokenizer::detect_chat_template(tmpl_text && *tmpl_text ? **tmpl_text : "",
                                                        pre && *pre ? **pre : "");
            if (!kind)
                return fail(kind.error().to_string());
            std::vector<tokenizer::ChatMessage> messages;
            if (system)
                messages.push_back({"system", *system, 0, {}});
            messages.push_back({"user", text, 0, {}});
            auto rendered = tokenizer::apply_chat_template(*kind, messages, true);
            if (!rendered)
                return fail(rendered.error().to_string());
            text = *rendered;
        }
        auto ids = tok->encode(text, /*add_special=*/true, /*parse_special=*/true);
        if (!ids)
            return fail(ids.error().to_string());
        prompt = *ids;
    }

    GenerateOptions go;
    go.max_tokens = n ? static_cast<int>(*n) : 64;
    go.ignore_eos = ignore_eos;
    go.stop = stops;
    go.sampling.temperature = temp ? static_cast<float>(*temp) : 0.8f;
    go.sampling.seed = seed ? static_cast<uint64_t>(*seed) : 0;
    if (top_k)
        go.sampling.top_k = static_cast<int>(*top_k);
    if (top_p)
        go.sampling.top_p = static_cast<float>(*top_p);
    if (min_p)
        go.sampling.min_p = static_cast<float>(*min_p);
    if (rep)
        go.sampling.repetition_penalty = static_cast<float>(*rep);
    if (presence)
        go.sampling.presence_penalty = static_cast<float>(*presence);

    const ModelConfig& c = (*model)->config;
    const int64_t limit = ctx ? *ctx : static_cast<int64_t>(prompt.size()) + go.max_tokens + 1;
    DecoderState state = make_decoder_state(c, limit);
    DecoderScratch scratch;
    EvalOptions eo;
    eo.kernels.n_threads = threads ? static_cast<int>(std::max<long long>(1, *threads)) : 2;
    EvalFn eval = [&](const int32_t* t, int64_t count, std::vector<float>& logits) {
        return decoder_eval(**model, state, scratch, t, count, eo, logits);
    };
    TokenSink sink = [&](std::string_view text, int32_t) {
        if (!ids_only && !text.empty()) {
            std::fwrite(text.data(), 1, text.size(), stdout);
            std::fflush(stdout);
        }
        return true;
    };
    auto result = generate(eval, *tok, prompt, go, sink);
    if (!result)
        return fail(result.error().to_string());
    if (ids_only) {
        for (size_t i = 0; i < result->tokens.size(); ++i)
            std::printf("%s%d", i ? "," : "", result->tokens[i]);
    }
    std::printf("\n");
    if (!quiet)
        std::fprintf(stderr, "prompt %lld tokens, %.2f t/s; generated %zu tokens, %.2f t/s\n",
                     static_cast<long long>(result->n_prompt), result->n_prompt / std::max(1e-9, result->prefill_seconds),
                     result->tokens.size(), result->tokens.size() / std::max(1e-9, result->decode_seconds));
    return 0;
}

} // namespace folio::cli
