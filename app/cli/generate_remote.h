#pragma once
// folio-cli generate --remote URL: the same generation through an OpenAI-compatible server
// (RemoteBackend), streaming the text to stdout.

#include <string>
#include <vector>

namespace folio::cli {

// True when the arguments ask for a remote server (--remote URL or --remote=URL).
bool wants_remote(const std::vector<std::string>& args);

int generate_remote(std::vector<std::string> args);

} // namespace folio::cli
