#pragma once
// folio-cli generate with --mmproj / --image (issue 8): the prompt's chunks (cli/media_input.h)
// are evaluated with direct decoder calls, then runtime/generator.h samples the continuation.
// The text-only path stays on the Engine (cmd_generate.cpp).

#include "runtime/generator.h"

#include <string>
#include <vector>

namespace folio::cli {

struct MediaGenerateArgs {
    std::string model;
    std::string mmproj;
    std::vector<std::string> images;
    std::string text; // with <__media__> markers, or none (images first)
    int threads = 2;
    long long context = 0; // 0: prompt positions + max_tokens
    GenerateOptions options;
    bool ids_only = false;
    bool quiet = false;
    bool print_stats = false;
};

// Returns the process exit code (0, or 1 with "error: ..." on stderr).
int generate_with_images(const MediaGenerateArgs& args);

} // namespace folio::cli
