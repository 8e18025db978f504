// folio-cli make-model: writes a random-weights model in llama.cpp's GGUF layout.
#include "cli/args.h"
#include "cli/commands.h"

#include "models/make_model.h"

#include <cstdio>

#include <unistd.h>

namespace folio::cli {

int cmd_make_model(std::vector<std::string> args) {
    const Command& self = *find_command("make-model");
    Args a(std::move(args));
    tools::MakeModelOptions o;
    if (auto v = a.take_value("--arch"))
        o.arch = *v;
    if (auto v = a.take_value("--preset"))
        o.preset = *v;
    if (auto v = a.take_value("--type"))
        o.type = *v;
    if (auto v = a.take_int("--seed"))
        o.seed = static_cast<uint64_t>(*v);
    if (auto v = a.take_int("--n-embd-text"))
        o.n_embd_text = static_cast<uint32_t>(*v);
    if (auto v = a.take_int("--context")) {
        if (*v < 1 || *v > (1ll << 31))
            return usage_error(self, "--context must be between 1 and 2^31 tokens");
        o.context = static_cast<uint32_t>(*v);
    }
    if (auto v = a.take_value("--out", "-o"))
        o.out = *v;
    o.confident = a.take_switch("--confident");
    const bool quiet = a.take_switch("--quiet");
    auto rest = a.positionals();
    if (!a.ok())
        return usage_error(self, a.error());
    if (!rest.empty())
        return usage_error(self, "unexpected argument " + rest[0]);
    if (o.out.empty())
        return usage_error(self, "--out is required");
    if (!quiet && isatty(STDERR_FILENO)) {
        o.progress = [](size_t done, size_t total) {
            std::fprintf(stderr, "\rmake-model: %zu/%zu tensors", done, total);
            if (done == total)
                std::fprintf(stderr, "\n");
        };
    }
    Status s = tools::make_model(o);
    if (!s)
        return fail(s.error().to_string());
    if (!quiet)
        std::printf("wrote %s (%s %s %s, seed %llu%s)\n", o.out.c_str(), o.arch.c_str(),
                    o.preset.c_str(), o.type.c_str(), static_cast<unsigned long long>(o.seed),
                    o.confident ? ", confident" : "");
    return 0;
}

} // namespace folio::cli
