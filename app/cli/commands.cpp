#include "cli/commands.h"

#include <array>
#include <cstdio>

namespace folio::cli {

int cmd_sysinfo(std::vector<std::string> args);

namespace {

// Keep sorted by name. Later issues add: info, logits, tokenize, generate, bench, make-model,
// bench-kernels, quantize, summarize, serve.
const std::array kCommands = {
    Command{"sysinfo", "sysinfo                      CPU, SIMD kernels and memory of this machine",
            cmd_sysinfo},
};

} // namespace

std::span<const Command> commands() { return kCommands; }

const Command* find_command(const std::string& name) {
    for (const Command& c : kCommands)
        if (name == c.name)
            return &c;
    return nullptr;
}

int fail(const std::string& message) {
    std::fprintf(stderr, "error: %s\n", message.c_str());
    return 1;
}

int usage_error(const Command& command, const std::string& message) {
    std::fprintf(stderr, "usage error: %s\nusage: folio-cli %s\n", message.c_str(), command.synopsis);
    return 2;
}

} // namespace folio::cli
