#pragma once
// Defaults for long documents (issue 22 §5): what one token of context costs in the KV cache of
// a model, and the context length and cache options a machine can hold for it (RAM budget plus
// the disk tier in the cache folder). The UI shows "context X (RAM Y + disk Z)" from a plan.
// std only. Choices and numbers: docs/KV_CACHE.md "Defaults for long documents".

#include "folio/cache.h"
#include "folio/error.h"

#include <cstdint>
#include <string>

namespace folio {

// The KV cache of one session of a model, in one storage type.
struct KvFootprint {
    // Bytes per token that can move to the disk tier: the MLA rows [c | k_pe] of every attention
    // layer, in the kv type (q8_0 rows zero-padded to a multiple of 32).
    int64_t bytes_per_token = 0;
    // Bytes per token that always stay in RAM: DSA index keys (index type).
    int64_t ram_bytes_per_token = 0;
    // Bytes per session independent of its length: KDA recurrent and convolution states.
    int64_t fixed_bytes = 0;
    int64_t trained_context = 0;   // the model's context_length
    int64_t weights_bytes = 0;     // the model file (mapped)
    bool sparse_attention = false; // a DSA indexer: reduced kv types change its selections
};

// Reads the model's metadata (no weights) and computes its footprint in `kv_type` /
// `index_type`. Errors: the file cannot be read or is not a supported model.
Expected<KvFootprint> kv_footprint(const std::string& gguf, KvType kv_type,
                                   KvType index_type = KvType::F32);

// The cheapest storage type whose accuracy docs/KV_CACHE.md shows to be safe: f16 (half of
// f32; greedy tokens unchanged, max logit difference 1.6e-3 on MLA, 4.4e-4 on KDA models), f32
// for DSA models (f16 flips indexer selections there: 0.52).
KvType recommended_kv_type(bool sparse_attention);

struct MachineMemory {
    int64_t available_ram = 0; // bytes the system could give (Linux MemAvailable)
    int64_t disk_free = -1;    // bytes free for an unprivileged user in the cache folder; < 0: none
};

// MemAvailable from /proc/meminfo and the free space of `cache_dir`'s file system (its nearest
// existing parent when it does not exist yet).
MachineMemory machine_memory(const std::string& cache_dir);

struct ContextPlan {
    int64_t context = 0;         // tokens per session (ModelSpec::context)
    CacheOptions cache;          // kv / index type, ram_budget, offload_dir, disk_budget
    int64_t bytes_per_token = 0; // KV bytes per token in cache.kv_type (both parts)
    int64_t ram_tokens = 0;      // tokens of a full context whose rows stay in the RAM budget
    int64_t disk_tokens = 0;     // the rest, on the disk tier (what its budget holds)
    // ram_tokens + disk_tokens < context: the rest would stay in RAM above the budget (a
    // warning in the cache stats; only when the context was raised to kMinContext).
    int64_t capacity_tokens = 0;    // what RAM budget + disk budget could hold
    bool limited_by_memory = false; // context < the trained context because of memory
};

// The plan for `footprint` (in the type it was computed for) on `machine`:
//  * RAM budget = half of the available RAM minus the weights (never below 0);
//  * disk tier in `cache_dir` (none when "" or machine.disk_free < 0), budget half its free space;
//  * capacity = tokens whose rows fit in RAM budget + disk budget, with the per-session fixed
//    state and the RAM-only index keys held by the RAM budget;
//  * context = the trained context, limited by the capacity (rounded down to whole blocks), and
//    never below min(trained, kMinContext) (then the budget is a warning, not a limit).
inline constexpr int64_t kMinContext = 4096;
ContextPlan plan_context(const KvFootprint& footprint, KvType kv_type, KvType index_type,
                         const MachineMemory& machine, const std::string& cache_dir);

// kv_footprint in recommended_kv_type, machine_memory(cache_dir) and plan_context together.
Expected<ContextPlan> recommend_context(const std::string& gguf, const std::string& cache_dir);

} // namespace folio
