// folio-cli bench-vision [--mmproj P.gguf] [-t 2]: encode time of a synthetic 1280x720
// screenshot through the kimivl vision encoder (bench/bench_vision.h).
#include "cli/args.h"
#include "cli/commands.h"

#include "bench_vision.h"
#include "models/kimivl_mmproj.h"

#include <chrono>
#include <cstdio>
#include <filesystem>

namespace folio::cli {

int cmd_bench_vision(std::vector<std::string> args) {
    const Command& self = *find_command("bench-vision");
    Args a(std::move(args));
    if (a.take_switch("--help") || a.take_switch("-h")) {
        std::printf("usage: folio-cli %s\n"
                    "  --mmproj P.gguf   kimivl mmproj (default: generate the small preset)\n"
                    "  -t, --threads N   OpenMP threads (default 2)\n"
                    "  --reps R          timed runs after one warm-up (default 3)\n",
                    self.synopsis);
        return 0;
    }
    bench::BenchVisionOptions o;
    if (auto m = a.take_value("--mmproj"))
        o.mmproj = *m;
    if (auto t = a.take_int("--threads", "-t"))
        o.threads = static_cast<int>(*t);
    if (auto r = a.take_int("--reps"))
        o.reps = static_cast<int>(*r);
    auto rest = a.positionals();
    if (!a.ok())
        return usage_error(self, a.error());
    if (!rest.empty())
        return usage_error(self, "unexpected argument " + rest[0]);
    if (o.threads < 1 || o.threads > 1024 || o.reps < 1 || o.reps > 1000)
        return usage_error(self, "need 1 <= threads <= 1024 and 1 <= reps <= 1000");
    std::filesystem::path temp;
    if (o.mmproj.empty()) {
        // The small preset (E 384, 6 blocks, ~60 MB), projecting to a 2048-wide LM.
        const auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
        temp = std::filesystem::temp_directory_path() /
               ("folio-bench-vision-" + std::to_string(stamp) + ".gguf");
        o.mmproj = temp.string();
        std::printf("generating the small kimivl mmproj: %s\n", o.mmproj.c_str());
        Status s = tools::make_kimivl_mmproj("small", 2048, 1, o.mmproj);
        if (!s)
            return fail(s.error().to_string());
    }
    const int rc = bench::run_bench_vision(o, stdout);
    if (!temp.empty()) {
        std::error_code ec;
        std::filesystem::remove(temp, ec);
    }
    return rc;
}

} // namespace folio::cli
