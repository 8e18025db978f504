// folio-cli sysinfo: what the engine sees of this machine.
#include "cli/args.h"
#include "cli/commands.h"

#include "folio/system_info.h"

#include <cstdio>

namespace folio::cli {

int cmd_sysinfo(std::vector<std::string> args) {
    Args a(std::move(args));
    auto rest = a.positionals();
    if (!a.ok() || !rest.empty())
        return usage_error(*find_command("sysinfo"),
                           a.ok() ? "unexpected argument " + rest[0] : a.error());
    SystemInfo info = query_system_info();
    std::printf("cpu: %s\n", info.cpu_model.c_str());
    std::printf("logical cores: %d\n", info.logical_cores);
    std::printf("kernels: %s\n", describe_kernel_path(info.features).c_str());
    std::printf("ram: %.2f GiB total, %.2f GiB available\n", info.total_ram_bytes / 1073741824.0,
                info.available_ram_bytes / 1073741824.0);
    for (const MemoryNode& n : info.memory_nodes)
        std::printf("memory node %d: %.2f GiB\n", n.id, n.total_bytes / 1073741824.0);
    return 0;
}

} // namespace folio::cli
