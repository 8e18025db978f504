// folio-cli logits: evaluates a token sequence (no BOS added) and prints the top logits of the
// last position; --dump writes float32 logits for every position ([n_tokens][n_vocab]).
// With -p TEXT (optionally --mmproj P.gguf --image I.png ..., issue 8) it evaluates a prompt
// with images instead (cli/media_input.h); --dump-last writes the last position's logits.
#include "cli/args.h"
#include "cli/cache_flags.h"
#include "cli/commands.h"
#include "cli/media_input.h"
#include "cli/mla_flag.h"
#include "cli/request_flags.h"
#include "cli/token_list.h"

#include "model/decoder/decoder_model.h"
#include "model/decoder/media_eval.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <numeric>

namespace folio::cli {

namespace {

bool write_floats(const std::string& path, const float* data, size_t count) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data),
              static_cast<std::streamsize>(count * sizeof(float)));
    out.close();
    return static_cast<bool>(out);
}

// -p TEXT with images: every chunk evaluated in order, logits of the last position.
int eval_prompt(const DecoderModel& model, const std::string& mmproj,
                const std::vector<std::string>& images, const std::string& text,
                const EvalOptions& opt, const std::shared_ptr<BlockPool>& pool, KvType index_type,
                std::vector<float>& last) {
    auto tok = tokenizer::Tokenizer::from_gguf(*model.file);
    if (!tok)
        return fail(tok.error().to_string());
    auto prompt = prepare_media_prompt(model, *tok, mmproj, images, text, opt.kernels.n_threads);
    if (!prompt)
        return fail(prompt.error().to_string());
    DecoderState state = make_decoder_state(model.config, std::max<int64_t>(prompt->n_positions, 1),
                                            pool, index_type);
    DecoderScratch scratch;
    Status s = eval_media_chunks(model, state, scratch, prompt->chunks, prompt->images, opt, last);
    if (!s)
        return fail(s.error().to_string());
    std::fprintf(stderr, "prompt: %lld positions (%zu images)\n",
                 static_cast<long long>(prompt->n_positions), prompt->images.size());
    return 0;
}

} // namespace

int cmd_logits(std::vector<std::string> args) {
    const Command& self = *find_command("logits");
    Args a(std::move(args));
    auto model_path = a.take_value("-m", "--model");
    const RequestFlags flags = take_request_flags(a, kPromptFlags | kImageFlags);
    auto top = a.take_int("--top");
    auto dump = a.take_value("--dump");
    auto threads = a.take_int("-t", "--threads");
    const bool seq = a.take_switch("--seq");
    auto form = a.take_value("--mla");
    auto dump_last = a.take_value("--dump-last");
    CacheFlags cache;
    std::string cache_err;
    if (!take_cache_flags(a, cache, cache_err))
        return usage_error(self, cache_err);
    auto rest = a.positionals();
    if (!a.ok())
        return usage_error(self, a.error());
    if (!cache.save_snapshot.empty() || !cache.load_snapshot.empty())
        return usage_error(self, "--save-snapshot / --load-snapshot work with generate");
    if (!rest.empty())
        return usage_error(self, "unexpected argument " + rest[0]);
    if (!model_path)
        return usage_error(self, "-m F.gguf is required");
    if (std::string bad = check_request_flags(flags); !bad.empty())
        return usage_error(self, bad);
    const std::optional<std::string>& prompt_text = flags.prompt;
    if (prompt_text && (dump || seq))
        return usage_error(self, "--dump and --seq need --tokens (use --dump-last with -p)");
    std::vector<int32_t> tokens;
    if (flags.tokens) {
        std::string err;
        auto parsed = parse_token_list(*flags.tokens, &err);
        if (!parsed)
            return usage_error(self, err);
        tokens = std::move(*parsed);
    }

    EvalOptions opt;
    opt.kernels.n_threads = threads ? static_cast<int>(std::max<long long>(1, *threads)) : 2;
    if (form) {
        const std::optional<MlaForm> parsed = parse_mla_form(*form);
        if (!parsed)
            return usage_error(self, "--mla must be auto, naive or absorbed");
        opt.mla = *parsed;
    }

    auto model = load_decoder(*model_path);
    if (!model)
        return fail(model.error().to_string());
    const ModelConfig& c = (*model)->config;
    const int64_t n = static_cast<int64_t>(tokens.size()), V = c.n_vocab;

    std::vector<float> all(static_cast<size_t>(n * V)), step;
    auto pool = std::make_shared<BlockPool>(pool_config_for(c, cache.options));
    const KvType index_type = cache.options.index_type;
    DecoderState state = make_decoder_state(c, std::max<int64_t>(n, 1), pool, index_type);
    DecoderScratch scratch;
    if (prompt_text) {
        if (int rc = eval_prompt(**model, flags.mmproj.value_or(""), flags.images, *prompt_text,
                                 opt, pool, index_type, all))
            return rc;
    } else if (seq) {
        for (int64_t i = 0; i < n; ++i) {
            Status s = decoder_eval(**model, state, scratch, tokens.data() + i, 1, opt, step);
            if (!s)
                return fail(s.error().to_string());
            std::copy(step.begin(), step.end(), all.begin() + i * V);
        }
    } else {
        opt.all_logits = true;
        Status s = decoder_eval(**model, state, scratch, tokens.data(), n, opt, all);
        if (!s)
            return fail(s.error().to_string());
    }

    if (cache.any) {
        CacheStats st;
        pool->fill_stats(st);
        std::fprintf(stderr, "%s\n", describe_cache_stats(st).c_str());
    }
    const float* last = all.data() + all.size() - static_cast<size_t>(V);
    if (dump && !write_floats(*dump, all.data(), all.size()))
        return fail("cannot write " + *dump);
    if (dump_last && !write_floats(*dump_last, last, static_cast<size_t>(V)))
        return fail("cannot write " + *dump_last);
    std::vector<int32_t> order(static_cast<size_t>(V));
    std::iota(order.begin(), order.end(), 0);
    const int64_t k = std::clamp<int64_t>(top ? *top : 5, 1, V);
    std::partial_sort(order.begin(), order.begin() + k, order.end(), [&](int32_t x, int32_t y) {
        return last[x] > last[y] || (last[x] == last[y] && x < y);
    });
    for (int64_t i = 0; i < k; ++i)
        std::printf("top%lld id=%d logit=%.6f\n", static_cast<long long>(i + 1), order[i],
                    last[order[i]]);
    return 0;
}

} // namespace folio::cli
