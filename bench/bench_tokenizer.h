#pragma once
// `folio-cli bench-tokenizer`: single-threaded encode throughput of a model's tokenizer in MB/s
// and tokens/s, on a text file or on ~1 MB of synthesized mixed English / Chinese / numbers text.

#include <cstdio>
#include <string>

namespace folio::bench {

struct BenchTokenizerOptions {
    std::string model_path;
    std::string text_path; // empty: synthesize
    size_t synth_bytes = size_t{1} << 20;
    int reps = 5; // timed repetitions after one warm-up (best and median reported)
};

// Deterministic report-like text of about `bytes` bytes (English prose, Chinese sentences,
// figures, a table), for benchmarks and tests.
std::string synthesize_report_text(size_t bytes);

// Prints the report to `out`; returns 0, or 1 with "error: ..." on stderr.
int run_bench_tokenizer(const BenchTokenizerOptions& options, std::FILE* out);

} // namespace folio::bench
