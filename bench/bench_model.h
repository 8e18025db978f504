#pragma once
// `folio-cli bench`: prefill (pp) and decode (tg) tokens/s of a model in llama-bench's style
// (model, size, params, threads, test, t/s mean ± stddev over repetitions), plus the decode
// throughput as a fraction of this machine's read bandwidth measured in the same run.

#include "folio/cache.h"
#include "folio/engine.h"
#include "model/layer/decoder_eval_types.h"

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace folio::bench {

struct BenchModelOptions {
    std::string model;
    int n_prompt = 512; // pp test size (0 = skip)
    int n_gen = 64;     // tg test size (0 = skip)
    int threads = 2;
    int reps = 3;
    bool measure_bandwidth = true;
    // Context depths (e.g. 4096, 32768): for each N, prefill N random tokens (in micro-batches
    // of `ubatch`) and time it ("pp N", once); then decode n_gen tokens after each of them ("tg
    // n_gen @ dN"), in rounds over all depths (a warm-up round and `reps` timed ones, rewinding
    // to depth N in between), and print each depth's decode speed relative to the first depth.
    // All depths' states stay in memory until the end.
    std::vector<int64_t> depths;
    int ubatch = 512;
    bool phases = false; // per depth: decode ms/token by phase (model/layer/step_profile.h)
    // With depths: also prefill this many tokens after each depth (a chunk at depth N, rewound
    // after each round, in the same interleaved rounds as decode), printed as "ppP @ dN" with
    // tokens per wall second and per CPU second (user + sys of the process), and each depth's
    // prefill speed relative to the first depth. 0 = not measured.
    int depth_prefill = 0;
    MlaForm mla = MlaForm::Auto; // MLA's form (Auto: the cheaper one; see mla_attention.cpp)
    CacheOptions cache;          // storage types, RAM budget, disk tier of the KV cache
    // Mapped as the engine loads them by default, or copied into RAM with 2 MiB pages
    // (runtime/weights_memory.h); the run prints which.
    WeightsMemory weights = WeightsMemory::Mapped;
};

int run_bench_model(const BenchModelOptions& options, std::FILE* out);

} // namespace folio::bench
