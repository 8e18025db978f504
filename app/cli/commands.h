#pragma once
// The subcommands of folio-cli. Each lives in its own cmd_<name>.cpp and is listed once in
// commands.cpp. A command returns the process exit code: 0 success, 1 failure (message on
// stderr as "error: ..."), 2 usage error.

#include <span>
#include <string>
#include <vector>

namespace folio::cli {

struct Command {
    const char* name;
    const char* synopsis; // one line for `folio-cli --help`
    int (*run)(std::vector<std::string> args);
};

std::span<const Command> commands();

// Prints "error: <message>" on stderr and returns 1.
int fail(const std::string& message);
// Prints "usage error: <message>" and the command's synopsis on stderr, returns 2.
int usage_error(const Command& command, const std::string& message);
const Command* find_command(const std::string& name);

} // namespace folio::cli
