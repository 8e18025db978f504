#pragma once
// `folio-cli bench-vision`: encode time of a synthetic 1280x720 screenshot through the kimivl
// vision encoder + projector (engine/model/vision/). The CLI generates the `small` preset mmproj
// (tools/models/kimivl_mmproj.h) when no file is given.

#include <cstdio>
#include <string>

namespace folio::bench {

struct BenchVisionOptions {
    std::string mmproj; // kimivl mmproj file
    int threads = 2;
    int reps = 3; // timed runs after one warm-up (best and median reported)
    int width = 1280;
    int height = 720;
};

// Prints the report to `out`; returns 0, or 1 with a message on stderr.
int run_bench_vision(const BenchVisionOptions& options, std::FILE* out);

} // namespace folio::bench
