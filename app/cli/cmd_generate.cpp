// folio-cli generate: streams a model's continuation of a prompt (or a chat turn), through the
// same Engine service the workbench uses (scheduler, speculation, statistics). With --mmproj /
// --image the prompt text carries images at its <__media__> markers (folio::Request::images).
#include "cli/answer_collector.h"
#include "cli/args.h"
#include "cli/cache_flags.h"
#include "cli/commands.h"
#include "cli/generate_remote.h"
#include "cli/request_flags.h"
#include "cli/weights_flag.h"

#include "folio/engine.h"

#include <algorithm>
#include <cstdio>

namespace folio::cli {

int cmd_generate(std::vector<std::string> args) {
    if (wants_remote(args))
        return generate_remote(std::move(args));
    const Command& self = *find_command("generate");
    Args a(std::move(args));
    auto model_path = a.take_value("-m", "--model");
    const RequestFlags flags = take_request_flags(
        a, kPromptFlags | kChatFlags | kImageFlags | kLengthFlags | kSamplingFlags | kPenaltyFlags);
    auto threads = a.take_int("-t", "--threads");
    auto weights = a.take_value("--weights");
    auto ctx = a.take_int("-c", "--ctx-size");
    auto spec = a.take_value("--spec");
    const bool ids_only = a.take_switch("--ids");
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
    if (!model_path)
        return usage_error(self, "-m F.gguf is required");
    // -n 0 reads the prompt without answering: meaningful only to save what was read.
    if (flags.max_tokens == 0 && cache.save_snapshot.empty())
        return usage_error(self, "-n 0 reads the prompt only; add --save-snapshot F to keep it");
    if (std::string bad = check_request_flags(flags, "--save-snapshot"); !bad.empty())
        return usage_error(self, bad);

    Request r;
    std::string err;
    if (!make_request(flags, r, err))
        return usage_error(self, err);
    r.interactive = true;
    const std::string spec_mode = spec.value_or("off");
    if (spec_mode == "lookup")
        r.speculation = SpeculationMode::PromptLookup;
    else if (spec_mode.rfind("draft:", 0) == 0 && spec_mode.size() > 6)
        r.speculation = SpeculationMode::DraftModel;
    else if (spec_mode != "off")
        return usage_error(self, "--spec must be off, lookup or draft:FILE.gguf");

    Engine engine;
    ModelSpec ms;
    if (weights) {
        const std::optional<WeightsMemory> parsed = parse_weights_memory(*weights);
        if (!parsed)
            return usage_error(self, kWeightsFlagError);
        ms.weights = *parsed;
    }
    ms.gguf = *model_path;
    ms.mmproj = flags.mmproj.value_or("");
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
