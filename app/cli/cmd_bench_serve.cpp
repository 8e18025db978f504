// folio-cli bench-serve: scheduler benchmarks (interactive latency under a background prefill,
// prompt-lookup speed-up).
#include "cli/args.h"
#include "cli/commands.h"

#include "bench_serve.h"

#include <cstdio>

namespace folio::cli {

int cmd_bench_serve(std::vector<std::string> args) {
    const Command& self = *find_command("bench-serve");
    Args a(std::move(args));
    bench::BenchServeOptions o;
    auto model = a.take_value("-m", "--model");
    auto t = a.take_int("-t", "--threads");
    auto bg = a.take_int("--bg-prefill");
    auto n = a.take_int("-n");
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
    if (bg)
        o.background_prefill = *bg;
    if (n)
        o.lookup_tokens = static_cast<int>(*n);
    if (o.threads < 1 || o.background_prefill < 64 || o.lookup_tokens < 1)
        return usage_error(self, "-t >= 1, --bg-prefill >= 64, -n >= 1");
    return bench::run_bench_serve(o, stdout);
}

} // namespace folio::cli
