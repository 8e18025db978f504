// folio-cli bench-doc-cache: TTFT of a question about a 32K-token document after a restart (its
// cache loaded from a snapshot) vs cold (bench/bench_doc_cache.h). Without -m it makes a tiny
// random deepseek2 model whose context holds the document.
#include "cli/args.h"
#include "cli/commands.h"

#include "bench_doc_cache.h"
#include "models/make_model.h"

#include <filesystem>

namespace folio::cli {

int cmd_bench_doc_cache(std::vector<std::string> args) {
    const Command& self = *find_command("bench-doc-cache");
    Args a(std::move(args));
    bench::BenchDocCacheOptions o;
    auto model = a.take_value("-m", "--model");
    auto t = a.take_int("-t", "--threads");
    auto doc = a.take_int("--doc");
    auto n = a.take_int("-n", "--n-gen");
    auto dir = a.take_value("--dir");
    auto rest = a.positionals();
    if (!a.ok())
        return usage_error(self, a.error());
    if (!rest.empty())
        return usage_error(self, "unexpected argument " + rest[0]);
    if (t)
        o.threads = static_cast<int>(*t);
    if (doc)
        o.doc_tokens = *doc;
    if (n)
        o.n_gen = static_cast<int>(*n);
    if (o.threads < 1 || o.doc_tokens < 64 || o.doc_tokens > (1 << 30) || o.n_gen < 1)
        return usage_error(self, "bad sizes: -t >= 1, --doc >= 64, -n >= 1");
    o.dir =
        dir ? *dir : (std::filesystem::temp_directory_path() / "folio-bench-doc-cache").string();
    std::error_code ec;
    std::filesystem::create_directories(o.dir, ec);
    if (ec)
        return fail(o.dir + ": cannot create the folder: " + ec.message());
    if (model) {
        o.model = *model;
    } else {
        tools::MakeModelOptions mm;
        mm.arch = "deepseek2";
        mm.preset = "tiny";
        mm.seed = 2026;
        mm.context = static_cast<uint32_t>(std::max<int64_t>(65536, o.doc_tokens * 2));
        mm.out = o.dir + "/tiny-long-context.gguf";
        if (Status s = tools::make_model(mm); !s)
            return fail(s.error().to_string());
        o.model = mm.out;
    }
    return bench::run_bench_doc_cache(o, stdout);
}

} // namespace folio::cli
