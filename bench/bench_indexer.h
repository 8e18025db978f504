#pragma once
// `folio-cli bench-kernels --indexer N`: the DSA lightning indexer's decode work over N cached
// keys (score kernel per index-key type, 1 thread and split across threads, and top-k selection
// fast vs reference), with the projected per-token cost of the given number of DSA layers.

#include <cstdint>
#include <cstdio>

namespace folio::bench {

struct BenchIndexerOptions {
    int64_t keys = 131072;
    int heads = 4;
    int dim = 64;
    int64_t top_k = 2048;
    int threads = 2;
    int reps = 7;
    int layers = 2; // DSA layers per token (projection only)
};

int run_bench_indexer(const BenchIndexerOptions& options, std::FILE* out);

} // namespace folio::bench
