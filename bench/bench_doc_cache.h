#pragma once
// `folio-cli bench-doc-cache`: the document-cache acceptance of issue 22 — time to first token of
// a question about a long document after a restart (the document's cache loaded from a snapshot)
// vs cold (the document read with the question), through the public Engine API exactly as the
// workbench uses it:
//  * cold: a new engine, prompt {system: document, user: question}, TTFT and reading throughput;
//  * the document prefix: a prefill-only request {system} without the generation prompt (a token
//    prefix of the question's prompt), saved as a snapshot; the engine is destroyed;
//  * restart: a new engine loads the model and the snapshot and asks the question: TTFT counted
//    from the snapshot load (load + request), and the answer must equal the cold one.

#include <cstdint>
#include <cstdio>
#include <string>

namespace folio::bench {

struct BenchDocCacheOptions {
    std::string model;
    int threads = 2;
    int64_t doc_tokens = 32768; // the document turn's size, at most (filled to within a character)
    int n_gen = 8;              // answer tokens compared between cold and restart
    std::string dir;            // the snapshot's folder
};

int run_bench_doc_cache(const BenchDocCacheOptions& options, std::FILE* out);

} // namespace folio::bench
