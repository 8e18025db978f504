// folio-cli: Folio's headless front end (jobs, benchmarks, conformance dumps).
#include "cli/commands.h"

#include "folio/system_info.h"
#include "folio/version.h"

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

void print_help() {
    std::printf("folio-cli %s - headless jobs of the Folio workbench\n\n", folio::version_string());
    std::printf("usage: folio-cli <command> [options]\n"
                "       folio-cli --help | --version\n\ncommands:\n");
    for (const auto& c : folio::cli::commands())
        std::printf("  %s\n", c.synopsis);
    std::printf(
        "\nCACHE FLAGS (logits, generate, bench): --kv-type f32|f16|bf16|q8_0, --index-type "
        "f32|f16|q8_0,\n  --ram-budget BYTES[K|M|G], --strict-budget, --ram-shards N, "
        "--offload-dir DIR, "
        "--prefix-cache on|off,\n  --save-snapshot F, --load-snapshot F\n");
    std::printf("\n--weights mapped|ram|auto (bench, generate, serve): where the model's weights "
                "live. mapped (default):\n  mapped from the file; ram: copied into RAM with 2 MiB "
                "pages (independent of the file);\n  auto: copied when half the available RAM "
                "holds the file and the system has transparent huge pages.\n");
    std::printf("\nRun 'folio-cli <command> --help' for a command's options.\n");
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        print_help();
        return 2;
    }
    const std::string first = argv[1];
    if (first == "--help" || first == "-h" || first == "help") {
        print_help();
        return 0;
    }
    if (first == "--version" || first == "-V") {
        std::printf("folio-cli %s (%s)\n", folio::version_string(),
                    folio::describe_kernel_path(folio::detect_cpu_features()).c_str());
        return 0;
    }
    const folio::cli::Command* command = folio::cli::find_command(first);
    if (!command) {
        std::fprintf(stderr, "error: unknown command '%s' (see folio-cli --help)\n", first.c_str());
        return 2;
    }
    std::vector<std::string> args(argv + 2, argv + argc);
    for (const auto& a : args) {
        if (a == "--help" || a == "-h") {
            std::printf("usage: folio-cli %s\n", command->synopsis);
            return 0;
        }
    }
    return command->run(std::move(args));
}
