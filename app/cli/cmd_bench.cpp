// folio-cli bench: prefill and decode speed of a model, llama-bench style.
#include "cli/args.h"
#include "cli/cache_flags.h"
#include "cli/commands.h"
#include "cli/mla_flag.h"
#include "cli/weights_flag.h"

#include "bench_model.h"
#include "cli/token_list.h"

#include <cstdio>

namespace folio::cli {

int cmd_bench(std::vector<std::string> args) {
    const Command& self = *find_command("bench");
    Args a(std::move(args));
    bench::BenchModelOptions o;
    auto model = a.take_value("-m", "--model");
    auto p = a.take_int("-p", "--n-prompt");
    auto n = a.take_int("-n", "--n-gen");
    auto t = a.take_int("-t", "--threads");
    auto r = a.take_int("-r", "--repetitions");
    const bool no_bw = a.take_switch("--no-bandwidth");
    const bool phases = a.take_switch("--phases");
    auto weights = a.take_value("--weights");
    auto ctx = a.take_value("--ctx");
    auto depth_pp = a.take_int("--depth-prefill");
    auto form = a.take_value("--mla");
    CacheFlags cache;
    std::string cache_err;
    if (!take_cache_flags(a, cache, cache_err))
        return usage_error(self, cache_err);
    o.cache = cache.options;
    auto rest = a.positionals();
    if (!a.ok())
        return usage_error(self, a.error());
    if (!rest.empty())
        return usage_error(self, "unexpected argument " + rest[0]);
    if (!model)
        return usage_error(self, "-m is required");
    o.model = *model;
    if (p)
        o.n_prompt = static_cast<int>(*p);
    if (n)
        o.n_gen = static_cast<int>(*n);
    if (t)
        o.threads = static_cast<int>(*t);
    if (r)
        o.reps = static_cast<int>(*r);
    o.measure_bandwidth = !no_bw;
    o.phases = phases;
    if (depth_pp)
        o.depth_prefill = static_cast<int>(*depth_pp);
    if (ctx) {
        std::string err;
        auto depths = parse_token_list(*ctx, &err); // same "N,N,N" syntax
        if (!depths)
            return usage_error(self, "--ctx expects depths like 4096,32768");
        for (int32_t d : *depths)
            if (d > 0)
                o.depths.push_back(d);
    }
    if (form) {
        const std::optional<MlaForm> parsed = parse_mla_form(*form);
        if (!parsed)
            return usage_error(self, "--mla must be auto, naive or absorbed");
        o.mla = *parsed;
    }
    if (weights) {
        const std::optional<WeightsMemory> parsed = parse_weights_memory(*weights);
        if (!parsed)
            return usage_error(self, kWeightsFlagError);
        o.weights = *parsed;
    }
    if (o.depth_prefill < 0)
        return usage_error(self, "--depth-prefill must be >= 0");
    if (o.n_prompt < 0 || o.n_gen < 0 || o.threads < 1 || o.reps < 1)
        return usage_error(self, "-p/-n must be >= 0, -t and -r >= 1");
    return bench::run_bench_model(o, stdout);
}

} // namespace folio::cli
