#pragma once
// `folio-cli bench-cache`: the KV cache's benchmarks (the cache issue), each reported as a ratio
// of two runs in the same process:
//  * time to first token of a second question (20 tokens) after a long document, with the prefix
//    cache (a new session that shares the document) vs without it (the first question, computed
//    from scratch);
//  * decode t/s at a long context with the RAM budget set to a fraction of the KV size (the rest
//    on the disk tier) vs an unlimited budget, on the same prefilled sequence;
//  * snapshot save and load rates (MB/s) of that document's cache.

#include <cstdint>
#include <cstdio>
#include <string>

namespace folio::bench {

struct BenchCacheOptions {
    std::string model;
    int threads = 2;
    int64_t doc_tokens = 32768;
    int question_tokens = 20;
    int n_gen = 32;
    double budget_fraction = 0.10;
    std::string offload_dir; // "" : a folder under the system temp dir
    bool run_ttft = true, run_decode = true, run_snapshot = true;
};

int run_bench_cache(const BenchCacheOptions& options, std::FILE* out);

} // namespace folio::bench
