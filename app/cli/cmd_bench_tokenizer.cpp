// folio-cli bench-tokenizer -m F.gguf [--text-file F]: single-threaded tokenizer throughput
// (bench/bench_tokenizer.h).
#include "cli/args.h"
#include "cli/commands.h"

#include "bench_tokenizer.h"

#include <cstdio>

namespace folio::cli {

int cmd_bench_tokenizer(std::vector<std::string> args) {
    const Command& self = *find_command("bench-tokenizer");
    Args a(std::move(args));
    bench::BenchTokenizerOptions o;
    if (a.take_switch("--help") || a.take_switch("-h")) {
        std::printf("usage: folio-cli %s\n"
                    "  -m, --model F    GGUF file with the tokenizer.* keys\n"
                    "  --text-file F    text to encode (default: ~1 MB synthesized report text)\n"
                    "  --reps R         timed repetitions (default 5)\n",
                    self.synopsis);
        return 0;
    }
    const auto model = a.take_value("--model", "-m");
    if (auto t = a.take_value("--text-file"))
        o.text_path = *t;
    if (auto r = a.take_int("--reps"))
        o.reps = static_cast<int>(*r);
    const auto rest = a.positionals();
    if (!a.ok())
        return usage_error(self, a.error());
    if (!rest.empty())
        return usage_error(self, "unexpected argument " + rest[0]);
    if (!model)
        return usage_error(self, "-m FILE.gguf is required");
    if (o.reps < 1 || o.reps > 1000)
        return usage_error(self, "need 1 <= reps <= 1000");
    o.model_path = *model;
    return bench::run_bench_tokenizer(o, stdout);
}

} // namespace folio::cli
