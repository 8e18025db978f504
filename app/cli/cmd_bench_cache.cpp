// folio-cli bench-cache: the KV cache's benchmarks (prefix-cache TTFT, decode under a RAM
// budget, snapshot rates), each a ratio of two runs in the same process.
#include "cli/args.h"
#include "cli/commands.h"

#include "bench_cache.h"

namespace folio::cli {

int cmd_bench_cache(std::vector<std::string> args) {
    const Command& self = *find_command("bench-cache");
    Args a(std::move(args));
    bench::BenchCacheOptions o;
    auto model = a.take_value("-m", "--model");
    auto t = a.take_int("-t", "--threads");
    auto doc = a.take_int("--doc");
    auto q = a.take_int("--question");
    auto n = a.take_int("-n", "--n-gen");
    auto frac = a.take_double("--budget-fraction");
    auto dir = a.take_value("--offload-dir");
    auto only = a.take_value("--only");
    auto rest = a.positionals();
    if (!a.ok())
        return usage_error(self, a.error());
    if (!rest.empty())
        return usage_error(self, "unexpected argument " + rest[0]);
    if (!model)
        return usage_error(self, "-m is required");
    o.model = *model;
    if (t)
        o.threads = static_cast<int>(*t);
    if (doc)
        o.doc_tokens = *doc;
    if (q)
        o.question_tokens = static_cast<int>(*q);
    if (n)
        o.n_gen = static_cast<int>(*n);
    if (frac)
        o.budget_fraction = *frac;
    if (dir)
        o.offload_dir = *dir;
    if (only) {
        o.run_ttft = *only == "ttft" || *only == "snapshot";
        o.run_snapshot = *only == "snapshot";
        o.run_decode = *only == "decode";
        if (!o.run_ttft && !o.run_decode)
            return usage_error(self, "--only must be ttft, snapshot or decode");
    }
    if (o.threads < 1 || o.doc_tokens < 64 || o.question_tokens < 1 || o.n_gen < 1 ||
        o.budget_fraction <= 0 || o.budget_fraction > 1)
        return usage_error(self, "bad sizes: -t >= 1, --doc >= 64, --question/-n >= 1, "
                                 "0 < --budget-fraction <= 1");
    return bench::run_bench_cache(o, stdout);
}

} // namespace folio::cli
