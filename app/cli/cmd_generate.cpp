// folio-cli generate: streams a model's continuation of a prompt (or a chat turn), through the
// same Engine service the workbench uses (scheduler, speculation, statistics). With --mmproj /
// --image the prompt carries images and is evaluated directly (cli/generate_media.h).
#include "cli/answer_collector.h"
#include "cli/args.h"
#include "cli/cache_flags.h"
#include "cli/commands.h"
#include "cli/generate_media.h"
#include "cli/generate_remote.h"
#include "cli/token_list.h"

#include "folio/engine.h"

#include <cstdio>

namespace folio::cli {

int cmd_generate(std::vector<std::string> args) {
    if (wants_remote(args))
        return generate_remote(std::move(args));
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
    auto spec = a.take_value("--spec");
    auto mmproj = a.take_value("--mmproj");
    std::vector<std::string> images;
    while (auto img = a.take_value("--image"))
        images.push_back(*img);
    std::vector<std::string> stops;
    while (auto s = a.take_value("--stop"))
        stops.push_back(*s);
    const bool chat = a.take_switch("--chat");
    const bool ids_only = a.take_switch("--ids");
    const bool ignore_eos = a.take_switch("--ignore-eos");
    const bool print_stats = a.take_switch("--stats");
    const bool quiet = a.take_switch("--quiet");
    CacheFlags cache;
    std::string cache_err;
    if (!take_cache_flags(a, cache, cache_err))
        return usage_error(self, cache_err);
    auto rest = a.positionals();
    if (!a.ok())
        return usage_error(self, a.error());
    if (!rest.empty())
        return usage_error(self, "unexpected argument " + rest[0]);
    if (!model_path || (!prompt_text && !tokens_text) || (prompt_text && tokens_text))
        return usage_error(self, "-m and exactly one of -p / --tokens are required");
    if (chat && !prompt_text)
        return usage_error(self, "--chat needs -p");
    if (!images.empty() && (!mmproj || !prompt_text || chat))
        return usage_error(self, "--image needs --mmproj and -p (without --chat)");
    if (mmproj && images.empty())
        return usage_error(self, "--mmproj needs at least one --image");

    Request r;
    if (tokens_text) {
        std::string err;
        auto ids = parse_token_list(*tokens_text, &err);
        if (!ids)
            return usage_error(self, err);
        r.prompt_tokens = *ids;
    } else if (chat) {
        if (system)
            r.messages.push_back({"system", *system, {}, {}});
        r.messages.push_back({"user", *prompt_text, {}, {}});
    } else {
        r.prompt_text = *prompt_text; // BOS per the vocabulary, special tokens parsed
    }
    r.max_tokens = n ? static_cast<int>(*n) : 64;
    if (r.max_tokens < 1)
        return usage_error(self, "-n must be at least 1");
    r.ignore_eos = ignore_eos;
    r.stop = stops;
    r.interactive = true;
    Sampling& s = r.sampling;
    s.temperature = temp ? static_cast<float>(*temp) : 0.8f;
    s.seed = seed ? static_cast<uint64_t>(*seed) : 0;
    s.top_k = top_k ? static_cast<int>(*top_k) : 0;
    s.top_p = top_p ? static_cast<float>(*top_p) : 1.0f;
    s.min_p = min_p ? static_cast<float>(*min_p) : 0.0f;
    s.repetition_penalty = rep ? static_cast<float>(*rep) : 1.0f;
    s.presence_penalty = presence ? static_cast<float>(*presence) : 0.0f;
    const std::string spec_mode = spec.value_or("off");
    if (spec_mode == "lookup")
        r.speculation = SpeculationMode::PromptLookup;
    else if (spec_mode.rfind("draft:", 0) == 0 && spec_mode.size() > 6)
        r.speculation = SpeculationMode::DraftModel;
    else if (spec_mode != "off")
        return usage_error(self, "--spec must be off, lookup or draft:FILE.gguf");

    if (!images.empty()) {
        if (cache.any)
            return usage_error(self, "the cache flags are not available with --image yet");
        if (r.speculation != SpeculationMode::Off)
            return usage_error(self, "--spec is not available with --image");
        MediaGenerateArgs m;
        m.model = *model_path;
        m.mmproj = *mmproj;
        m.images = images;
        m.text = *prompt_text;
        m.threads = threads ? static_cast<int>(std::max<long long>(1, *threads)) : 2;
        m.context = ctx ? *ctx : 0;
        m.options.max_tokens = r.max_tokens;
        m.options.stop = r.stop;
        m.options.ignore_eos = r.ignore_eos;
        m.options.sampling = {s.temperature,      s.top_k, s.top_p, s.min_p, s.repetition_penalty,
                              s.presence_penalty, 64,      s.seed};
        m.ids_only = ids_only;
        m.quiet = quiet;
        m.print_stats = print_stats;
        return generate_with_images(m);
    }

    Engine engine;
    ModelSpec ms;
    ms.gguf = *model_path;
    ms.threads = threads ? static_cast<int>(std::max<long long>(1, *threads)) : 2;
    ms.context = ctx ? *ctx : 0;
    ms.cache = cache.options;
    if (r.speculation == SpeculationMode::DraftModel)
        ms.draft_gguf = spec_mode.substr(6);
    auto facts = engine.load_sync(ms);
    if (!facts)
        return fail(facts.error().to_string());

    AnswerCollector answer; // read only after wait()
    answer.attach(r.callbacks, ids_only);
    const SessionId session = engine.create_session();
    if (!cache.load_snapshot.empty()) {
        // A snapshot that cannot be used is not fatal: the prompt is computed from scratch.
        auto loaded = engine.load_snapshot(session, cache.load_snapshot);
        if (!loaded)
            std::fprintf(stderr, "warning: %s; computing the prompt from scratch\n",
                         loaded.error().to_string().c_str());
        else if (!quiet)
            std::fprintf(stderr, "snapshot: loaded %lld tokens (%.1f MB) in %.3f s\n",
                         static_cast<long long>(loaded->tokens), loaded->bytes / 1e6,
                         loaded->seconds);
    }
    engine.wait(engine.submit(session, std::move(r)));
    if (!cache.save_snapshot.empty()) {
        auto saved = engine.save_snapshot(session, cache.save_snapshot);
        if (!saved)
            return fail(saved.error().to_string());
        if (!quiet)
            std::fprintf(stderr, "snapshot: saved %lld tokens (%.1f MB) in %.3f s\n",
                         static_cast<long long>(saved->tokens), saved->bytes / 1e6, saved->seconds);
    }
    if (cache.any && !quiet)
        std::fprintf(stderr, "%s\n", describe_cache_stats(engine.stats().cache).c_str());
    std::lock_guard lk(answer.mu);
    const RequestStats& stats = answer.stats;
    if (!answer.error.empty())
        return fail(answer.error);
    if (ids_only)
        answer.print_ids();
    std::printf("\n");
    if (print_stats)
        std::printf("stats: ttft_ms=%.2f prefill_tps=%.2f decode_tps=%.2f spec_accept=%.3f "
                    "spec_drafted=%lld "
                    "prompt_tokens=%lld reused=%lld generated=%lld stop=%s\n",
                    stats.ttft_ms, stats.prefill_tps, stats.decode_tps,
                    stats.spec_drafted > 0 ? double(stats.spec_accepted) / stats.spec_drafted : 0.0,
                    static_cast<long long>(stats.spec_drafted),
                    static_cast<long long>(stats.prompt_tokens),
                    static_cast<long long>(stats.reused_tokens),
                    static_cast<long long>(stats.generated_tokens), stats.stop_reason.c_str());
    else if (!quiet)
        std::fprintf(stderr, "prompt %lld tokens, %.2f t/s; generated %lld tokens, %.2f t/s\n",
                     static_cast<long long>(stats.prompt_tokens), stats.prefill_tps,
                     static_cast<long long>(stats.generated_tokens), stats.decode_tps);
    return 0;
}

} // namespace folio::cli
