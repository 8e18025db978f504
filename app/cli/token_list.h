#pragma once
// Parses "1,2,3" token lists given on the command line.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace folio::cli {

// nullopt (and a message in *error) on an empty list or a malformed / negative number.
std::optional<std::vector<int32_t>> parse_token_list(const std::string& text, std::string* error);

} // namespace folio::cli
