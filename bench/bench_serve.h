#pragma once
// `folio-cli bench-serve`: the scheduler under load. (1) Decode latency of an interactive
// session when idle vs while another session prefills a long document in the background;
// (2) greedy decode speed with and without prompt-lookup speculation on a quoting task.

#include <cstdint>
#include <cstdio>
#include <string>

namespace folio::bench {

struct BenchServeOptions {
    std::string model;
    int threads = 2;
    int64_t background_prefill = 16384; // tokens of the background document
    int interactive_tokens = 48;
    int lookup_tokens = 128;
};

int run_bench_serve(const BenchServeOptions& options, std::FILE* out);

} // namespace folio::bench
