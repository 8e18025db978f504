#pragma once
// Minimal command-line parsing for folio-cli subcommands: flags with values, switches and
// positional arguments, with errors a user can act on.

#include <optional>
#include <string>
#include <vector>

namespace folio::cli {

class Args {
public:
    explicit Args(std::vector<std::string> args) : args_(std::move(args)) {}

    // Removes "--name" and returns true when present.
    bool take_switch(const std::string& name);
    // Removes "--name VALUE" (or "--name=VALUE"); nullopt when absent. Sets an error when the
    // flag is present without a value.
    std::optional<std::string> take_value(const std::string& name);
    std::optional<std::string> take_value(const std::string& name, const std::string& alias);
    // Like take_value, parsed as an integer / a double; sets an error on a malformed number.
    std::optional<long long> take_int(const std::string& name, const std::string& alias = {});
    std::optional<double> take_double(const std::string& name, const std::string& alias = {});

    // What is left after all take_* calls: positional arguments. Unknown "--flags" among
    // them set an error.
    std::vector<std::string> positionals();

    bool ok() const { return error_.empty(); }
    const std::string& error() const { return error_; }

private:
    std::vector<std::string> args_;
    std::string error_;
};

} // namespace folio::cli
