// folio-cli quantize IN.gguf OUT.gguf --recipe q8_0|q4_k|mxfp4-moe|q4_k_m|...|FILE [-t N]:
// per-module quantization (tools/quantize/recipe.h lists the built-in recipes, among them
// llama-quantize's q3_k_m, q4_k_m, q5_k_m, q6_k and iq4_xs mixtures).
#include "cli/args.h"
#include "cli/commands.h"

#include "folio/model_info.h"
#include "quantize/quantize_model.h"

#include <unistd.h>

#include <cstdio>

namespace folio::cli {

int cmd_quantize(std::vector<std::string> args) {
    const Command& self = *find_command("quantize");
    Args a(std::move(args));
    auto recipe_name = a.take_value("--recipe");
    auto threads = a.take_int("-t", "--threads");
    auto rest = a.positionals();
    if (!a.ok())
        return usage_error(self, a.error());
    if (rest.size() != 2 || !recipe_name)
        return usage_error(self, "IN.gguf OUT.gguf and --recipe are required");
    auto recipe = tools::load_recipe(*recipe_name);
    if (!recipe)
        return fail(recipe.error().to_string());
    tools::QuantizeOptions o;
    o.in = rest[0];
    o.out = rest[1];
    o.recipe = *recipe;
    o.threads = threads ? static_cast<int>(*threads) : 0;
    const bool tty = isatty(STDERR_FILENO);
    o.progress = [tty](size_t done, size_t total, const std::string& name) {
        if (!tty && done != total)
            return;
        const int width = 30, filled = static_cast<int>(width * done / total);
        std::fprintf(stderr, "\r[%.*s%*s] %zu/%zu %-40.40s", filled,
                     "##############################", width - filled, "", done, total,
                     name.c_str());
        if (done == total)
            std::fprintf(stderr, "\n");
        std::fflush(stderr);
    };
    auto report = tools::quantize_model(o);
    if (!report)
        return fail(report.error().to_string());
    std::printf("%s -> %s (recipe %s): %zu tensors, %zu converted, %s -> %s (%.1f%%)\n",
                o.in.c_str(), o.out.c_str(), o.recipe.name.c_str(), report->tensors,
                report->converted, format_bytes(report->in_bytes).c_str(),
                format_bytes(report->out_bytes).c_str(),
                100.0 * report->out_bytes / std::max<uint64_t>(1, report->in_bytes));
    return 0;
}

} // namespace folio::cli
